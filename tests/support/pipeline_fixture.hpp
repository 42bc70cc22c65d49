// SPDX-License-Identifier: GPL-2.0-or-later
// The pipeline's test fixture: an executor over a rate function, the seed drive's space, one run.
#pragma once

#include "strategies/registry.hpp"
#include "strategies/trial.hpp"
#include "strategies/trial_store.hpp"
#include "tests/support/seed_like_identify.hpp"
#include "tests/support/sim_fixture.hpp"
#include "tests/support/trial_settings.hpp"
#include "tuner/run/pipeline.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace disktune::testing {

using probe::SettingId;
using strategies::TrialResult;
using strategies::TrialStatus;

// A TrialExecutor over a rate function [MiB/s], with samples +-1 % around it; records what
// the search ran (the baseline's trials apart: baseline_trials).
class FakeExecutor final : public strategies::TrialExecutor {
 public:
  explicit FakeExecutor(std::function<double(const probe::Settings&)> rate) : rate_(std::move(rate)) {}
  std::optional<strategies::Stop> pending_stop() override {
    if (signalled_in_confirm_ || (stop_after_ && ran_.size() >= *stop_after_))
      return strategies::Stop{strategies::StopReason::signal, "signal", {}};
    return std::nullopt;
  }
  strategies::Executed run(const probe::Settings& config, const strategies::TrialRequest& request) override {
    if (request.kind == strategies::TrialKind::confirmation_unit) return unit(config);
    if (request.kind != strategies::TrialKind::search) {
      TrialResult t = trial(config);
      if (!baseline_factors_.empty()) {  // the baseline's trials read apart: a noise floor
        const double factor = baseline_factors_[static_cast<std::size_t>(baseline_trials_) % baseline_factors_.size()];
        for (double& sample : t.samples) sample *= factor;
        strategies::summarize_samples(t);
      }
      ++baseline_trials_;
      return strategies::TrialMeasurement{t, 0.0, 0};
    }
    ran_.push_back(config);
    all_samples_.push_back(request.all_samples);
    if (wedge_at_ && ran_.size() == *wedge_at_) {
      TrialResult wedged = trial(config);
      wedged.status = TrialStatus::wedged;
      return strategies::Stop{strategies::StopReason::wedged, "device wedged", wedged};
    }
    return strategies::TrialMeasurement{trial(config), 0.0, 0};
  }
  void adopt_baseline(const strategies::Baseline&) override { adopted_ = true; }
  // A confirmation unit: one sample, rate x (1 - spread), rate, rate x (1 + spread) in turn per
  // configuration (three passes keep what a trial's three samples hold).
  strategies::Executed unit(const probe::Settings& config) {
    ++confirm_units_;
    if (signal_in_confirm_) signalled_in_confirm_ = true;  // a SIGTERM during the round
    TrialResult t = trial(config, confirm_spread_);
    t.samples = {t.samples[static_cast<std::size_t>(units_of_[config]++ % 3)]};
    t.measured_s = unit_s_;
    strategies::summarize_samples(t);
    return strategies::TrialMeasurement{t, 0.0, 0};
  }

  probe::Settings original_ = seed_baseline();
  std::vector<probe::Settings> ran_;
  std::vector<bool> all_samples_;  // each search trial's TrialRequest::all_samples, in order
  std::optional<std::size_t> stop_after_, wedge_at_;
  bool adopted_ = false;
  double confirm_spread_ = 0.01;  // the confirmation round's samples: rate x (1 -+ spread)
  int confirm_units_ = 0;     // confirmation units run
  double unit_s_ = 1.0 / 3.0;  // a confirmation unit's measured time [s]
  std::map<probe::Settings, int> units_of_;  // confirmation units run per configuration
  bool signal_in_confirm_ = false;    // a signal arrives during the confirmation round
  bool signalled_in_confirm_ = false;
  int baseline_trials_ = 0;   // baseline and baseline_repeat trials run
  std::vector<double> baseline_factors_;  // the baseline's trials' rates x these in turn (empty: x 1)

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
};

/// The confirmation calls `store` measured (its unit intents' distinct rounds), and the passes
/// of call `round`.
inline int measured_calls(const strategies::MemoryTrialStore& store) {
  std::set<int> rounds;
  for (const auto& [round, pass, unit] : store.unit_intents()) rounds.insert(round);
  return static_cast<int>(rounds.size());
}
inline int passes_of(const strategies::MemoryTrialStore& store, int call) {
  int passes = 0;
  for (const auto& [round, pass, unit] : store.unit_intents())
    if (round == call) passes = std::max(passes, pass);
  return passes;
}

inline strategies::SearchSpace seed_space(std::vector<SettingId> only) {
  strategies::SpaceOptions options;
  options.only = std::move(only);
  return strategies::build_space(seed_like_identify(), legacy_capabilities(),
                                 seed_baseline(), options);
}

inline tuner::PipelineResult run(const strategies::SearchSpace& space, const std::string& strategy_name,
                          strategies::TrialStore& store, strategies::TrialExecutor& executor,
                          std::optional<std::size_t> max_trials = std::nullopt, std::ostream* log = nullptr) {
  auto strategy = strategies::make_strategy(strategy_name);
  REQUIRE(strategy);
  std::ostringstream kept;  // the log, when the caller reads none
  const tuner::PipelineInput input{space,       **strategy, space.baseline(), "test", true, max_trials, std::nullopt,
                                   true,        pipeline_trial_settings()};
  return tuner::run_pipeline(input, store, executor, log ? *log : kept);
}

inline std::int64_t get(const probe::Settings& s, SettingId id) { return s.at(id).number(); }

/// multcount and io_support on the seed drive: io_support=3 reads 12 MiB/s, the rest 10.
inline double io_support_helps(const probe::Settings& c) { return get(c, SettingId::io_support) == 3 ? 12.0 : 10.0; }

}  // namespace disktune::testing
