// SPDX-License-Identifier: GPL-2.0-or-later
// Evaluator: runs trials for strategies; owns the cache, the budget and the quarantine.
#pragma once

#include "strategies/search_space.hpp"
#include "strategies/trial.hpp"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace disktune::strategies {

/// Budget and tie rules.
struct EvaluatorOptions {
  std::optional<std::size_t> max_trials;  ///< stop evaluating new configurations after this many
  /// Two medians closer than this fraction count as a tie (besides the samples' own spread).
  double min_gain = 0.02;
};

/// What strategies call to measure a configuration (Kernel Tuner's CostFunc). A strategy
/// never sees a device: the runner given here applies, measures and restores.
class Evaluator {
 public:
  /// Runs one trial of a full configuration; the id is filled in by the evaluator.
  using Runner = std::function<TrialResult(const probe::Settings&)>;

  Evaluator(const SearchSpace& space, Runner runner, TrialResult baseline, EvaluatorOptions options = {});

  /// Result of `config`: the baseline's own measurement for the baseline, else from the
  /// cache or by running a new trial. nullopt when the budget
  /// is spent or the configuration holds a quarantined value (it is never applied).
  /// Precondition (DT_ASSERT): space.contains(config).
  const TrialResult* evaluate(const probe::Settings& config);

  /// Called with every new trial right after it is recorded (progress output).
  void set_observer(std::function<void(const TrialResult&)> observer) { observer_ = std::move(observer); }

  /// The baseline's measurement (trial id 0, measured before the search).
  [[nodiscard]] const TrialResult& baseline() const { return baseline_; }
  /// Every new trial in evaluation order (cache hits are not repeated).
  [[nodiscard]] const std::vector<TrialResult>& trials() const { return trials_; }
  /// True while new configurations may still be evaluated.
  [[nodiscard]] bool budget_left() const;
  /// True when `config` is a configuration that failed, or contains a whole group choice
  /// whose single-change trial failed (for the coupled using_dma/xfermode group, the pair:
  /// udma4 failing does not rule out DMA with another mode).
  [[nodiscard]] bool quarantined(const probe::Settings& config) const;
  /// Group choices taken out of the run after their single-change trial failed, with the reason.
  [[nodiscard]] const std::map<probe::Settings, std::string>& quarantine() const { return quarantine_; }
  /// True when `a` is faster than `b` by more than the noise (min_gain and both spreads).
  [[nodiscard]] bool clearly_faster(const TrialResult& a, const TrialResult& b) const;
  /// The best ok trial, preferring among ties the one with fewer changes from the baseline;
  /// the baseline itself when no trial is clearly faster than it.
  [[nodiscard]] const TrialResult& best() const;

 private:
  void record_failure(const TrialResult& trial);

  const SearchSpace& space_;
  Runner runner_;
  std::function<void(const TrialResult&)> observer_;
  TrialResult baseline_;
  EvaluatorOptions options_;
  std::vector<TrialResult> trials_;
  std::map<probe::Settings, std::size_t> cache_;  // config -> index in trials_
  std::map<probe::Settings, std::string> quarantine_;  // partial assignments (one group choice each)
  std::set<probe::Settings> failed_configs_;
};

/// Settings in `config` whose value differs from `base` (the "changes" of a configuration).
probe::Settings changes_from(const probe::Settings& base, const probe::Settings& config);

}  // namespace disktune::strategies
