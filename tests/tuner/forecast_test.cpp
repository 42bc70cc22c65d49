// SPDX-License-Identifier: GPL-2.0-or-later
// The search's forecast and its time left (issue 14 item 3): exact where the count is known,
// and on the default strategy within a factor of 2 of the time actually left after screening,
// measured on the SIMULATED drive's virtual clock.
#include "strategies/forecast.hpp"

#include "strategies/registry.hpp"
#include "tests/support/sim_fixture.hpp"
#include "tests/support/trial_settings.hpp"
#include "tuner/child_executor.hpp"
#include "tuner/pipeline.hpp"
#include "tuner/trial_runner.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace disktune;

namespace {

tuner::TrialSettings in_process_settings() { return testing::pipeline_trial_settings(); }

struct Run {
  tuner::PipelineResult result;
  std::vector<tuner::SearchProgress> progress;
  std::size_t screening = 0;
  std::string log;
};

Run tune_sim(const probe::IdentifyInfo& identify, std::uint64_t seed, const std::string& strategy_name,
             std::optional<std::size_t> max_trials = std::nullopt) {
  auto device = testing::make_sim(identify, {}, seed);
  const auto original = *device->snapshot();
  const auto space = strategies::build_space(identify, device->capabilities(), original, {});
  tuner::TrialRunner runner(*device, original, in_process_settings());
  tuner::ChildExecutor executor(runner, {});
  tuner::MemoryRunStore store;
  auto strategy = strategies::make_strategy(strategy_name);
  REQUIRE(strategy);
  std::ostringstream log;
  Run run;
  run.screening = strategies::screening_trials(space);
  tuner::PipelineInput input{space, **strategy, original, "sim:", true, max_trials, std::nullopt, true};
  input.on_progress = [&run](const tuner::SearchProgress& p) { run.progress.push_back(p); };
  run.result = tuner::run_pipeline(input, store, executor, log);
  run.log = log.str();
  return run;
}

// Measurement seconds the run actually spent after its first `done` search trials.
double actual_remaining_s(const tuner::PipelineResult& result, std::size_t done) {
  double left = result.confirmation_s;
  for (std::size_t i = done; i < result.search_trials; ++i) left += result.trials[i].measured_s;
  return left;
}

}  // namespace

TEST_CASE("forecast: exhaustive's count is exact; every forecast covers the trials so far", "[strategies][tuner]") {
  const auto run = tune_sim(testing::seed_identify(), 3, "exhaustive");
  REQUIRE(run.result.exit_code == tuner::kExitOk);
  REQUIRE_FALSE(run.progress.empty());
  for (const auto& p : run.progress) {
    REQUIRE_FALSE(p.forecast.estimated);
    REQUIRE(p.forecast.total == run.result.search_trials);
  }
  REQUIRE(run.progress.back().trials == run.result.search_trials);
}

TEST_CASE("forecast: the default strategy's time left after screening is within a factor of 2 of the time it took",
          "[strategies][tuner]") {
  const auto identify = GENERATE(testing::seed_identify(), testing::udma5_identify());
  const std::uint64_t seed = GENERATE(1, 2, 3, 4, 5, 6);
  const auto run = tune_sim(identify, seed, strategies::default_strategy_name());
  REQUIRE(run.result.exit_code == tuner::kExitOk);
  for (const auto& p : run.progress) {
    REQUIRE(p.forecast.estimated);
    REQUIRE(p.forecast.total >= p.trials);
  }
  const auto after = std::find_if(run.progress.begin(), run.progress.end(),
                                  [&](const auto& p) { return p.trials >= run.screening; });
  REQUIRE(after != run.progress.end());
  const double actual = actual_remaining_s(run.result, after->trials);
  INFO("seed " << seed << ", screening " << run.screening << " trials, forecast " << after->forecast.total << " of "
               << run.result.search_trials << " run; time left estimated " << after->remaining_s << " s, actual "
               << actual << " s");
  REQUIRE(actual > 0.0);
  REQUIRE(after->remaining_s >= actual / 2.0);
  REQUIRE(after->remaining_s <= actual * 2.0);
}

TEST_CASE("status line: trial i of N, elapsed, time left, best", "[tuner]") {
  tuner::SearchProgress p;
  p.trials = 12;
  p.forecast = {31, true};
  p.remaining_s = 130.4;
  p.best = 6.56;
  const auto objective = bench::parse_objective("seq-read", "").value();
  REQUIRE(tuner::status_line(p, objective, 65.0) == "trial 12 of about 31, 1 m 05 s, about 2 m 10 s left, best 6.56 MB/s");
  p.forecast.estimated = false;
  REQUIRE(tuner::status_line(p, objective, 7200.0).find("trial 12 of 31, 2 h 00 m,") == 0);
}

TEST_CASE("forecast: --max-trials caps the count and the time left", "[strategies][tuner]") {
  const auto run = tune_sim(testing::seed_identify(), 2, strategies::default_strategy_name(), 4);
  REQUIRE(run.result.search_trials == 4);
  for (const auto& p : run.progress) {
    REQUIRE(p.forecast.total == 4);  // "trial 1 of about 38" for a 4-trial run misled (adversary)
    REQUIRE_FALSE(p.forecast.estimated);
  }
  // At the 4th trial nothing of the search is left: only the confirmation round's cost.
  REQUIRE(run.progress.back().remaining_s < run.progress.front().remaining_s);
}
