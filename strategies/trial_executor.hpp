// SPDX-License-Identifier: GPL-2.0-or-later
// TrialExecutor: what runs every kind of trial (the baseline, its repeats, the search's, the
// confirmation round) in a watchdog child, or in process.
#pragma once

#include "strategies/baseline.hpp"
#include "strategies/stop.hpp"
#include "strategies/trial.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace disktune::strategies {

/// Which trial of a run this is. Every kind is applied, measured, checked and restored the
/// same way; they differ in what is measured besides the samples.
enum class TrialKind {
  search,           ///< a configuration the strategy asked for (the Evaluator's)
  baseline,         ///< the settings as found, first: with the cached-read figure and the data
                    ///< checksum later trials must reproduce; the time limits derive from its rate
  baseline_repeat,  ///< the settings as found again, a child of its own: the noise between repeats;
                    ///< its data must match the baseline's checksum
  baseline_check,   ///< the settings as found, a resumed run's quick trial: re-reads the data checksum
                    ///< (the disk may have been written between the runs), so compared with none
  confirmation_unit,  ///< one unit of the confirmation round: a warm-up and one kept sample
};

/// The kind's name as journal records keep it: "search", "baseline", "baseline_repeat",
/// "baseline_check", "confirmation_unit".
std::string_view to_string(TrialKind kind);
/// The kind to_string names `name`, or nullopt for any other text.
std::optional<TrialKind> trial_kind_from(std::string_view name);

/// What the executor is asked for besides the configuration.
struct TrialRequest {
  TrialKind kind = TrialKind::search;
  /// The incumbent's lower bound [score unit]: sampling may stop once the candidate is clearly below.
  std::optional<double> incumbent_low;
  bool quick = false;        ///< take only the minimum samples
  /// Take the most samples (--max-repeats) every time: the noise between baseline repeats is
  /// larger than the smallest gain, and the median of more samples varies less.
  bool all_samples = false;
  /// A first kept sample below this [score unit] cannot make the configuration the minimum
  /// gain faster than the incumbent: sampling stops there (bench::SamplingPlan::no_gain_below).
  std::optional<double> gain_bar;
};

/// A trial's measurement (the cached-read figure and checksum set for a TrialKind::baseline
/// trial), or the stop it ran into.
using Executed = std::variant<TrialMeasurement, Stop>;

/// One unit of the confirmation round: one contender measured once (a warm-up and a kept sample).
struct ConfirmUnit {
  int round = 1;                 ///< 1-based
  int rounds = 1;                ///< rounds in all
  std::size_t contender = 0;     ///< index into the round's contenders: 0 = the baseline
  std::size_t contenders = 1;    ///< contenders in all, the baseline included
  TrialStatus status = TrialStatus::ok;
  double value = 0.0;            ///< the kept sample's score; 0 unless ok
  std::string detail;            ///< why it is not ok; else empty
};

/// Called once per unit, in order, as the round measures it (progress lines).
using ConfirmProgress = std::function<void(const ConfirmUnit&)>;

/// A confirmation round's figures, one per contender in order (samples [score], the round's
/// kept samples pooled), or the stop it ran into.
using Confirmed = std::variant<std::vector<TrialResult>, Stop>;

/// Runs trials of full configurations: applies, measures, checks and restores (tuner's
/// ChildExecutor does it in a forked watchdog child through TrialRunner, or in process for a
/// simulated drive). A strategy never sees it: the Evaluator, the baseline's trials
/// (strategies/baseline_trials.hpp) and the confirmation round's units
/// (strategies/confirmation_units.hpp) call it, each trial after its intent record.
class TrialExecutor {
 public:
  virtual ~TrialExecutor() = default;
  /// A stop that was asked for from outside (a signal), checked before each new trial is
  /// looked up or journaled; nullopt to go on.
  [[nodiscard]] virtual std::optional<Stop> pending_stop() = 0;
  /// One trial of `config` of `request.kind`; the device is back at its original settings
  /// afterwards. The result's id, settings and quick flag are the caller's to fill in. A Stop
  /// when the run cannot go on: signal (a baseline-kind trial's Stop carries the trial),
  /// wedged device (with the trial), failed restore, unreadable drive.
  virtual Executed run(const probe::Settings& config, const TrialRequest& request) = 0;
  /// The baseline later trials are held to (its checksum; its rate sets the time limits),
  /// measured by this run or taken over from the run it resumes.
  virtual void adopt_baseline(const Baseline& baseline) = 0;
};

/// An executor over a plain function (synthetic drives in tests): never stops; a baseline is
/// its trial alone; a confirmation unit keeps the function's median as its one sample when the
/// function gives no samples.
class FunctionExecutor final : public TrialExecutor {
 public:
  using Function = std::function<TrialResult(const probe::Settings&, const TrialRequest&)>;
  explicit FunctionExecutor(Function function) : function_(std::move(function)) {}
  [[nodiscard]] std::optional<Stop> pending_stop() override { return std::nullopt; }
  Executed run(const probe::Settings& config, const TrialRequest& request) override;
  void adopt_baseline(const Baseline&) override {}

 private:
  Function function_;
};

}  // namespace disktune::strategies
