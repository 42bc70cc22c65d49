// SPDX-License-Identifier: GPL-2.0-or-later
// Evaluator: runs trials for strategies; owns the cache, the budget, the quarantine, the store and stopping.
#pragma once

#include "strategies/search_space.hpp"
#include "strategies/stop.hpp"
#include "strategies/trial.hpp"
#include "strategies/trial_executor.hpp"
#include "strategies/trial_store.hpp"

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace disktune::strategies {

/// Budget and tie rules.
struct EvaluatorOptions {
  std::optional<std::size_t> max_trials;  ///< stop evaluating new configurations after this many
  /// Stop evaluating new configurations once this much measurement time [s] is spent,
  /// counting spent_before_s and reserve_s too: the budget covers the whole run.
  std::optional<double> time_budget_s;
  /// Measurement time spent before the search (the baseline and its noise repeats) [s].
  double spent_before_s = 0.0;
  /// Measurement time kept for after the search (the confirmation round) [s].
  double reserve_s = 0.0;
  /// A gain smaller than this fraction is never significant, whatever the intervals say.
  double min_gain = 0.02;
  /// The A/A noise floor measured at the start of the run (fraction); a gain must exceed it.
  double noise_floor = 0.0;
  /// --tolerance: how far (fraction) a configuration's guard objective may fall below the
  /// baseline's before it cannot win (strategies/guard.hpp fails_guard).
  double guard_tolerance = 0.05;
  /// Every trial takes the most samples (TrialRequest::all_samples): the baseline's noise
  /// is larger than the smallest gain.
  bool all_samples = false;
  /// The kernel's stated defaults for the device (probe::kernel_defaults): the winner rule's
  /// tie order prefers settings at them after the settings as found.
  probe::Settings kernel_defaults;
};

/// What the caller of Evaluator::confirm sees of a round while it is measured.
struct ConfirmHooks {
  /// Called just before the executor measures the round (not when the store has it).
  std::function<void(const std::vector<probe::Settings>& contenders)> before_measure;
  ConfirmProgress progress;  ///< once per unit measured (TrialExecutor::confirm)
};

/// How much measuring a configuration deserves.
enum class Effort {
  full,   ///< adaptive: until the interval is tight, or clearly slower than the incumbent
  quick,  ///< the minimum samples only (racing's first rung); a later full request re-measures
};

/// Why evaluate() gave no trial.
enum class NotRun {
  quarantined,   ///< the configuration holds a quarantined value: never applied
  budget_spent,  ///< no new configuration may be evaluated (max_trials or the time budget)
  stopped,       ///< the search was stopped (Evaluator::stop() says why): the strategy returns
};

/// What evaluate() gives back: a trial (valid while the Evaluator lives), or why there is none.
class Evaluation {
 public:
  Evaluation(const TrialResult* trial) : trial_(trial) {}  // NOLINT: a trial converts implicitly
  Evaluation(NotRun why) : why_(why) {}                    // NOLINT
  [[nodiscard]] explicit operator bool() const { return trial_ != nullptr; }
  [[nodiscard]] const TrialResult* get() const { return trial_; }
  [[nodiscard]] const TrialResult& operator*() const { return *trial_; }
  [[nodiscard]] const TrialResult* operator->() const { return trial_; }
  /// True when no further evaluation can run a trial (budget spent or stopped): the
  /// strategy should return.
  [[nodiscard]] bool ended() const { return !trial_ && why_ != NotRun::quarantined; }

 private:
  const TrialResult* trial_ = nullptr;
  NotRun why_ = NotRun::quarantined;
};

/// What strategies call to measure a configuration (Kernel Tuner's CostFunc). A strategy
/// never sees a device: the executor given here applies, measures and restores, and every
/// new trial takes one path: cache and quarantine check, the store's history (a resumed or
/// crashed trial is never applied again), TrialStore::begin (intent, durable), the
/// executor, TrialStore::record. A stop (signal, store failure, wedged device) ends the
/// search as a value: stop() says why and every later evaluate() returns NotRun::stopped.
class Evaluator {
 public:
  /// Runs one trial of a full configuration; the id is filled in by the evaluator.
  using Runner = std::function<TrialResult(const probe::Settings&)>;

  /// Runs one trial as requested (adaptive sampling against the incumbent, or quick).
  using RequestRunner = std::function<TrialResult(const probe::Settings&, const TrialRequest&)>;

  /// Trials through `executor`, recorded in `store` (both outlive the Evaluator); the
  /// store's history() is taken over here.
  Evaluator(const SearchSpace& space, TrialExecutor& executor, TrialStore& store, TrialResult baseline,
            EvaluatorOptions options = {});
  /// A function as the executor (FunctionExecutor) and a MemoryTrialStore of its own.
  Evaluator(const SearchSpace& space, Runner runner, TrialResult baseline, EvaluatorOptions options = {});
  Evaluator(const SearchSpace& space, RequestRunner runner, TrialResult baseline, EvaluatorOptions options = {});

  /// Result of `config`: the baseline's own measurement for the baseline, else from the
  /// cache, the store's history or by running a new trial (a quick cached result is
  /// re-measured when `effort` is full). NotRun when the budget is spent, the search was
  /// stopped, or the configuration holds a quarantined value (it is never applied).
  /// Precondition (DT_ASSERT): space.contains(config).
  Evaluation evaluate(const probe::Settings& config, Effort effort = Effort::full);
  /// True when evaluate(config) would run no new trial: the baseline, a configuration
  /// measured in this run, or one whose result a resumed run's store holds.
  [[nodiscard]] bool known(const probe::Settings& config) const;
  /// The result evaluate(config) gave in this run (the baseline's for the baseline), or
  /// nullptr when it has not been evaluated in this run. Measures nothing.
  [[nodiscard]] const TrialResult* measured(const probe::Settings& config) const;
  /// Why the search was stopped; nullopt while it was not.
  [[nodiscard]] const std::optional<Stop>& stop() const { return stop_; }
  /// Measurement time spent by the search's trials so far [s] (spent_before_s not included).
  [[nodiscard]] double measured_s() const { return measured_s_; }
  /// The highest lower bound of any ok trial so far (the baseline included), a score (bench/objective.hpp: higher is better).
  [[nodiscard]] double incumbent_low() const { return incumbent_low_; }
  /// min_gain and the noise floor, whichever is larger (fraction).
  [[nodiscard]] double gain_threshold() const;
  /// EvaluatorOptions::min_gain and ::noise_floor (fractions): the confirmation round weighs the
  /// noise floor against its own trials' (strategies::round_threshold).
  [[nodiscard]] double min_gain() const { return options_.min_gain; }
  [[nodiscard]] double noise_floor() const { return options_.noise_floor; }
  /// What a trial's first kept sample must reach to go on sampling (TrialRequest::gain_bar,
  /// score unit): the incumbent's lower bound raised by min_gain, lowered by kNoGainSigmas
  /// times one sample's noise (the larger of the noise floor and the baseline's spread). Below
  /// it a configuration is not the minimum gain faster: tied knobs around a bad
  /// start's final incumbent took 3 whole samples each where one showed the tie. nullopt
  /// before any incumbent or when the noise leaves no bar.
  [[nodiscard]] std::optional<double> gain_bar() const;
  /// One sample's relative noise (a fraction): the larger of the noise between the baseline's
  /// trials (EvaluatorOptions::noise_floor) and the baseline's samples' spread (± half range).
  [[nodiscard]] double sample_noise() const;

  /// Round `round` (0, then the extra rounds) of the confirmation of `contenders` ([0] the
  /// baseline), `rounds` rounds, as one unit of the store (TrialStore::confirm_round: from a
  /// resumed run, skipped, or measured by the executor: TrialExecutor::confirm). A Stop as
  /// those give it (restore_failed, wedged, signal, store_failed).
  Rounded confirm(const std::vector<probe::Settings>& contenders, int round, int rounds, const ConfirmHooks& hooks = {});

  /// True when `trial` (one of trials()) was taken from the store's history: a resumed run's
  /// result or verdict (quarantined, crashed), not measured in this run.
  [[nodiscard]] bool taken_from_store(const TrialResult& trial) const;
  /// Called with every new trial right after it is recorded (progress output).
  void set_observer(std::function<void(const TrialResult&)> observer) { observer_ = std::move(observer); }

  /// The baseline's measurement (trial id 0, measured before the search).
  [[nodiscard]] const TrialResult& baseline() const { return baseline_; }
  /// Every new trial in evaluation order (cache hits are not repeated). A deque, so that the
  /// pointers evaluate() returns stay valid while more trials are added.
  [[nodiscard]] const std::deque<TrialResult>& trials() const { return trials_; }
  /// True while new configurations may still be evaluated: not stopped, fewer than
  /// max_trials trials, and spent_before_s + measured_s() + reserve_s below time_budget_s.
  [[nodiscard]] bool budget_left() const;
  /// True when `config` is a configuration that failed, or contains a whole group choice
  /// whose single-change trial failed (for the coupled using_dma/xfermode group, the pair:
  /// udma4 failing does not rule out DMA with another mode; but when the failed pair changed
  /// one setting only, e.g. DMA on at the current mode, that value is quarantined in every
  /// pair): one suspect per crash.
  [[nodiscard]] bool quarantined(const probe::Settings& config) const;
  /// Group choices taken out of the run after their single-change trial failed, with the reason.
  [[nodiscard]] const std::map<probe::Settings, std::string>& quarantine() const { return quarantine_; }
  /// True when `a` is significantly faster than `b` (winner_rule.hpp, gain_threshold()).
  [[nodiscard]] bool clearly_faster(const TrialResult& a, const TrialResult& b) const;
  /// True when `a` and `b` are apart beyond the noise: one is clearly_faster than the other,
  /// each taken with_sample_band of kNoGainSigmas × sample_noise() (a one-sample trial's value
  /// counts within that band: docs/statistics.md, "What acted").
  [[nodiscard]] bool apart(const TrialResult& a, const TrialResult& b) const;
  /// True when `trial` fails the guard against the baseline (guard.hpp, options' guard_tolerance).
  [[nodiscard]] bool fails_guard(const TrialResult& trial) const;
  /// The options this evaluator was made with (its budget, gain and tie rules).
  [[nodiscard]] const EvaluatorOptions& options() const { return options_; }
  /// The guard tolerance (fraction) of the options.
  [[nodiscard]] double guard_tolerance() const;
  /// The kernel's stated defaults for the device, as the options give them.
  [[nodiscard]] const probe::Settings& kernel_defaults() const;
  /// The winner of pick_winner over the latest measurement of every configuration:
  /// among ties the fewest risky changes, then the fewest changes; the baseline itself when
  /// no trial is significantly faster than it.
  [[nodiscard]] const TrialResult& best() const;

 private:
  void record_failure(const TrialResult& trial);
  std::optional<TrialResult> obtain(const probe::Settings& config, const TrialRequest& request);
  std::optional<TrialResult> from_history(const probe::Settings& config, bool quick) const;
  std::optional<TrialResult> halt(Stop stop);
  const TrialResult& add(TrialResult trial, bool from_store);

  std::unique_ptr<TrialExecutor> own_executor_;  // for the function constructors
  std::unique_ptr<TrialStore> own_store_;
  const SearchSpace& space_;
  TrialExecutor& executor_;
  TrialStore& store_;
  TrialHistory history_;  // what the store knew before this run
  std::optional<Stop> stop_;
  std::function<void(const TrialResult&)> observer_;
  TrialResult baseline_;
  EvaluatorOptions options_;
  std::deque<TrialResult> trials_;
  std::vector<bool> from_store_;  // per trials_ entry: taken from history_, not measured
  std::map<probe::Settings, std::size_t> cache_;  // config -> index in trials_
  std::map<probe::Settings, std::string> quarantine_;  // partial assignments (a group choice, or one value)
  std::set<probe::Settings> failed_configs_;
  double measured_s_ = 0.0;
  double incumbent_low_ = 0.0;
};

/// Settings in `config` whose value differs from `base` (the "changes" of a configuration).
probe::Settings changes_from(const probe::Settings& base, const probe::Settings& config);

}  // namespace disktune::strategies
