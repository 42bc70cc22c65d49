// SPDX-License-Identifier: GPL-2.0-or-later
// RunExecutor: the pipeline's measuring side; ChildExecutor adapts TrialRunner to it.
#pragma once

#include "strategies/trial_executor.hpp"
#include "tuner/run/noise.hpp"
#include "tuner/trial/trial_runner.hpp"

#include <functional>
#include <optional>
#include <ostream>
#include <vector>

namespace disktune::tuner {

/// What the pipeline measures with: trials (strategies::TrialExecutor), the baseline, its
/// noise and the confirmation round. The contracts are TrialRunner's.
class RunExecutor : public strategies::TrialExecutor {
 public:
  /// TrialRunner::measure_baseline.
  virtual probe::Result<strategies::Baseline> measure_baseline() = 0;
  /// TrialRunner::adopt_baseline.
  virtual void adopt_baseline(const strategies::Baseline& baseline) = 0;
  /// settle_noise (noise.hpp) with this executor's runner.
  virtual NoiseCheck settle_noise(strategies::Baseline& baseline, bool keep_figures, double min_gain_pct,
                                  std::ostream& log) = 0;
  /// TrialRunner::confirm (`progress`: once per unit, as it is measured).
  virtual probe::Result<std::vector<strategies::TrialResult>> confirm(const std::vector<probe::Settings>& contenders,
                                                                      const ConfirmProgress& progress) = 0;
  /// TrialRunner::set_confirm_rounds.
  virtual void set_confirm_rounds(int rounds) = 0;
  /// TrialRunner::settings.
  [[nodiscard]] virtual const TrialSettings& settings() const = 0;
  /// True once a child left the device wedged (TrialRunner::health().wedged()).
  [[nodiscard]] virtual bool wedged() const = 0;
};

/// A RunExecutor over a TrialRunner: each trial in its watchdog child, or in process when
/// TrialSettings::in_process (simulated evaluation). run() reports as a Stop: a failed
/// restore (restore_failed), a drive that no longer reads (unreadable), a child killed to
/// stop the run (signal; no result), a trial that wedged the device (wedged, with the trial).
class ChildExecutor final : public RunExecutor {
 public:
  /// `stop_source`: a stop asked for from outside (a signal), polled before each trial; empty: never.
  using StopSource = std::function<std::optional<strategies::Stop>()>;
  ChildExecutor(TrialRunner& runner, StopSource stop_source) : runner_(runner), stop_source_(std::move(stop_source)) {}

  [[nodiscard]] std::optional<strategies::Stop> pending_stop() override;
  strategies::Executed run(const probe::Settings& config, const strategies::TrialRequest& request) override;
  probe::Result<strategies::Baseline> measure_baseline() override { return runner_.measure_baseline(); }
  void adopt_baseline(const strategies::Baseline& baseline) override { runner_.adopt_baseline(baseline); }
  NoiseCheck settle_noise(strategies::Baseline& baseline, bool keep_figures, double min_gain_pct, std::ostream& log) override {
    return tuner::settle_noise(runner_, baseline, keep_figures, min_gain_pct, log);
  }
  probe::Result<std::vector<strategies::TrialResult>> confirm(const std::vector<probe::Settings>& contenders,
                                                              const ConfirmProgress& progress) override {
    return runner_.confirm(contenders, progress);
  }
  void set_confirm_rounds(int rounds) override { runner_.set_confirm_rounds(rounds); }
  [[nodiscard]] const TrialSettings& settings() const override { return runner_.settings(); }
  [[nodiscard]] bool wedged() const override { return runner_.health().wedged(); }

 private:
  TrialRunner& runner_;
  StopSource stop_source_;
};

}  // namespace disktune::tuner
