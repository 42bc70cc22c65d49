// SPDX-License-Identifier: GPL-2.0-or-later
// The whole pipeline over a SIMULATED drive: a kernel error logged in the winner's confirmation unit keeps it from being the answer.
#include "tuner/run/pipeline.hpp"

#include "strategies/registry.hpp"
#include "strategies/search_space.hpp"
#include "tests/support/sim_fixture.hpp"
#include "tests/support/trial_settings.hpp"
#include "tuner/trial/child_executor.hpp"
#include "tuner/trial/kernel_errors.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <sstream>

using namespace disktune;
using strategies::TrialKind;
using strategies::TrialStatus;

namespace {

// Which configuration's confirmation units log a kernel error, and whether the trial now running is one.
struct Injection {
  std::optional<probe::Settings> target;
  bool armed = false;
};

// The kernel log as the runner watches it: one error line in every armed trial.
class InjectedKernelLog final : public tuner::KernelErrors {
 public:
  explicit InjectedKernelLog(const Injection& injection) : injection_(injection) {}
  void start() override { logs_ = injection_.armed; }
  std::vector<std::string> new_errors() override {
    if (!std::exchange(logs_, false)) return {};
    return {"ata1.00: failed command: READ DMA EXT"};
  }

 private:
  const Injection& injection_;
  bool logs_ = false;
};

// The run's ChildExecutor, arming the injection for the target's confirmation units only.
class ArmingExecutor final : public strategies::TrialExecutor {
 public:
  ArmingExecutor(strategies::TrialExecutor& inner, Injection& injection) : inner_(inner), injection_(injection) {}
  std::optional<strategies::Stop> pending_stop() override { return inner_.pending_stop(); }
  strategies::Executed run(const probe::Settings& config, const strategies::TrialRequest& request) override {
    injection_.armed = request.kind == TrialKind::confirmation_unit && injection_.target == config;
    return inner_.run(config, request);
  }
  void adopt_baseline(const strategies::Baseline& baseline) override { inner_.adopt_baseline(baseline); }

 private:
  strategies::TrialExecutor& inner_;
  Injection& injection_;
};

// A default tune of the seed drive's simulation, with the injection given.
tuner::PipelineResult tune(Injection& injection, std::string& log_text) {
  auto device = testing::make_sim(testing::seed_identify(), {}, 1);
  const auto original = *device->snapshot();
  const auto space = strategies::build_space(testing::seed_identify(), device->capabilities(), original, {});
  const auto settings = testing::pipeline_trial_settings();
  tuner::TrialRunner runner(*device, original, settings, std::make_unique<InjectedKernelLog>(injection));
  tuner::ChildExecutor child(runner, {});
  ArmingExecutor executor(child, injection);
  strategies::MemoryTrialStore store;
  auto strategy = strategies::make_strategy(strategies::default_strategy_name());
  REQUIRE(strategy);
  const tuner::PipelineInput input{space, **strategy, original, "sim:", true, std::nullopt, std::nullopt, true, settings};
  std::ostringstream log;
  auto result = tuner::run_pipeline(input, store, executor, log);
  log_text = log.str();
  return result;
}

}  // namespace

TEST_CASE("pipeline: a kernel error in a finalist's confirmation unit makes it unstable and never the answer",
          "[tuner]") {
  Injection none;
  std::string log;
  const auto reference = tune(none, log);
  REQUIRE(reference.exit_code == tuner::kExitOk);
  REQUIRE(reference.confirmation);
  const auto winner = reference.best.settings;
  REQUIRE(winner != reference.baseline->trial.settings);  // the seed drive's bad start has a winner

  Injection injected{winner, false};
  const auto result = tune(injected, log);
  INFO(log);
  REQUIRE(result.confirmation);
  const auto& round = result.confirmation->results;
  const auto it = std::find_if(round.begin(), round.end(), [&](const auto& r) { return r.settings == winner; });
  REQUIRE(it != round.end());
  CHECK(it->status == TrialStatus::unstable);
  CHECK_THAT(it->detail, Catch::Contains("kernel logged errors during the trial: ata1.00: failed command: READ DMA EXT"));
  CHECK(result.best.settings != winner);
  CHECK_THAT(log, Catch::Contains("unstable"));
}
