// SPDX-License-Identifier: GPL-2.0-or-later
// TrialExecutor: what runs one trial for the Evaluator (a watchdog child, or in process).
#pragma once

#include "strategies/stop.hpp"
#include "strategies/trial.hpp"

#include <functional>
#include <optional>
#include <utility>
#include <variant>

namespace disktune::strategies {

/// What the executor is asked for besides the configuration.
struct TrialRequest {
  /// The incumbent's lower bound [score unit]: sampling may stop once the candidate is clearly below.
  std::optional<double> incumbent_low;
  bool quick = false;  ///< take only the minimum samples
};

/// A trial's result, or the stop it ran into.
using Executed = std::variant<TrialResult, Stop>;

/// Runs trials of full configurations: applies, measures, checks and restores (tuner's
/// ChildExecutor does it in a forked watchdog child through TrialRunner, or in process for a
/// simulated drive). A strategy never sees it: only the Evaluator calls it.
class TrialExecutor {
 public:
  virtual ~TrialExecutor() = default;
  /// A stop that was asked for from outside (a signal), checked before each new trial is
  /// looked up or journaled; nullopt to go on.
  [[nodiscard]] virtual std::optional<Stop> pending_stop() = 0;
  /// One trial of `config`; the device is back at its original settings afterwards. The
  /// result's id, settings and quick flag are the Evaluator's to fill in. A Stop when the run
  /// cannot go on (signal, wedged device, failed restore, unreadable drive).
  virtual Executed run(const probe::Settings& config, const TrialRequest& request) = 0;
};

/// An executor over a plain function (synthetic drives in tests): never stops.
class FunctionExecutor final : public TrialExecutor {
 public:
  using Function = std::function<TrialResult(const probe::Settings&, const TrialRequest&)>;
  explicit FunctionExecutor(Function function) : function_(std::move(function)) {}
  [[nodiscard]] std::optional<Stop> pending_stop() override { return std::nullopt; }
  Executed run(const probe::Settings& config, const TrialRequest& request) override {
    return function_(config, request);
  }

 private:
  Function function_;
};

}  // namespace disktune::strategies
