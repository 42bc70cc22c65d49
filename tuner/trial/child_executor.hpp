// SPDX-License-Identifier: GPL-2.0-or-later
// ChildExecutor: every kind of trial through TrialRunner, its errors and stops as strategies' values.
#pragma once

#include "strategies/trial_executor.hpp"
#include "tuner/trial/trial_runner.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace disktune::tuner {

/// A strategies::TrialExecutor over a TrialRunner: each trial, of every kind, through
/// TrialRunner::run in its watchdog child, or in process when TrialSettings::in_process
/// (simulated evaluation). A trial reports as a Stop: a failed restore (restore_failed), a
/// drive that no longer reads (unreadable), a child killed to stop the run (signal; a search
/// trial's with no result, a baseline-kind trial's carrying it), a trial that wedged the
/// device (wedged, with the trial).
class ChildExecutor final : public strategies::TrialExecutor {
 public:
  /// `stop_source`: a stop asked for from outside (a signal), polled before each trial; empty: never.
  using StopSource = std::function<std::optional<strategies::Stop>()>;
  ChildExecutor(TrialRunner& runner, StopSource stop_source) : runner_(runner), stop_source_(std::move(stop_source)) {}

  [[nodiscard]] std::optional<strategies::Stop> pending_stop() override;
  strategies::Executed run(const probe::Settings& config, const strategies::TrialRequest& request) override;
  void adopt_baseline(const strategies::Baseline& baseline) override { runner_.adopt_baseline(baseline); }

 private:
  TrialRunner& runner_;
  StopSource stop_source_;
};

}  // namespace disktune::tuner
