// SPDX-License-Identifier: GPL-2.0-or-later
// The pipeline's test fixture: an executor over a rate function, the seed drive's space, one run.
#pragma once

#include "strategies/registry.hpp"
#include "strategies/trial.hpp"
#include "tests/support/seed_like_identify.hpp"
#include "tests/support/sim_fixture.hpp"
#include "tests/support/trial_settings.hpp"
#include "tuner/run/pipeline.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace disktune::testing {

using probe::SettingId;
using strategies::TrialResult;
using strategies::TrialStatus;

// A RunExecutor over a rate function [MiB/s], with samples +-1 % around it; records what ran.
class FakeExecutor final : public tuner::RunExecutor {
 public:
  explicit FakeExecutor(std::function<double(const probe::Settings&)> rate) : rate_(std::move(rate)) {}
  std::optional<strategies::Stop> pending_stop() override {
    if (stop_after_ && ran_.size() >= *stop_after_) return strategies::Stop{strategies::StopReason::signal, "signal", {}};
    return std::nullopt;
  }
  strategies::Executed run(const probe::Settings& config, const strategies::TrialRequest&) override {
    ran_.push_back(config);
    if (wedge_at_ && ran_.size() == *wedge_at_) {
      TrialResult wedged = trial(config);
      wedged.status = TrialStatus::wedged;
      wedged_ = true;
      return strategies::Stop{strategies::StopReason::wedged, "device wedged", wedged};
    }
    return trial(config);
  }
  probe::Result<strategies::Baseline> measure_baseline() override {
    strategies::Baseline baseline;
    baseline.trial = trial(original_);
    baseline.aa_medians = {baseline.trial.median, baseline.trial.median};
    return baseline;
  }
  void adopt_baseline(const strategies::Baseline&) override { adopted_ = true; }
  tuner::NoiseCheck settle_noise(strategies::Baseline&, bool, double, std::ostream&) override { return {}; }
  probe::Result<std::vector<TrialResult>> confirm(const std::vector<probe::Settings>& contenders,
                                                  const tuner::ConfirmProgress&) override {
    ++confirm_calls_;
    std::vector<TrialResult> results;
    for (const auto& c : contenders) results.push_back(trial(c, confirm_spread_));
    return results;
  }
  void set_confirm_rounds(int rounds) override { settings_.confirm_rounds = rounds; }
  [[nodiscard]] const tuner::TrialSettings& settings() const override { return settings_; }
  [[nodiscard]] bool wedged() const override { return wedged_; }

  probe::Settings original_ = seed_baseline();
  std::vector<probe::Settings> ran_;
  std::optional<std::size_t> stop_after_, wedge_at_;
  bool adopted_ = false;
  double confirm_spread_ = 0.01;  // the confirmation round's samples: rate x (1 -+ spread)
  int confirm_calls_ = 0;

 private:
  TrialResult trial(const probe::Settings& config, double spread = 0.01) const {
    TrialResult t;
    t.settings = config;
    t.status = TrialStatus::ok;
    const double rate = rate_(config);
    t.samples = {(1 - spread) * rate, rate, (1 + spread) * rate};
    t.measured_s = 1.0;
    strategies::summarize_samples(t);
    return t;
  }
  std::function<double(const probe::Settings&)> rate_;
  tuner::TrialSettings settings_ = pipeline_trial_settings();
  bool wedged_ = false;
};

inline strategies::SearchSpace seed_space(std::vector<SettingId> only) {
  strategies::SpaceOptions options;
  options.only = std::move(only);
  return strategies::build_space(seed_like_identify(), legacy_capabilities(),
                                 seed_baseline(), options);
}

inline tuner::PipelineResult run(const strategies::SearchSpace& space, const std::string& strategy_name,
                          tuner::RunStore& store, tuner::RunExecutor& executor,
                          std::optional<std::size_t> max_trials = std::nullopt) {
  auto strategy = strategies::make_strategy(strategy_name);
  REQUIRE(strategy);
  std::ostringstream log;
  const tuner::PipelineInput input{space, **strategy, space.baseline(), "test", true, max_trials, std::nullopt, true};
  return tuner::run_pipeline(input, store, executor, log);
}

inline std::int64_t get(const probe::Settings& s, SettingId id) { return s.at(id).number(); }

/// multcount and io_support on the seed drive: io_support=3 reads 12 MiB/s, the rest 10.
inline double io_support_helps(const probe::Settings& c) { return get(c, SettingId::io_support) == 3 ? 12.0 : 10.0; }

}  // namespace disktune::testing
