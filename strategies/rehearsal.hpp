// SPDX-License-Identifier: GPL-2.0-or-later
// A search's rehearsal: the strategy run again on predicted trials, to count what it has left.
#pragma once

#include "strategies/evaluator.hpp"
#include "strategies/search_space.hpp"
#include "strategies/strategy.hpp"

#include <cstddef>

namespace disktune::strategies {

/// Group g's effect at its choice c as screening measured it: the median of c laid over the
/// baseline over the baseline's median (a ratio, 1 = no effect). For a choice whose single
/// change was not measured ok: of a numeric ladder, the measured value nearest by rank
/// (an effect changes smoothly along a ladder); of any other group, 1. Measures nothing.
double single_change_ratio(const SearchSpace& space, const Evaluator& evaluator, std::size_t g, std::size_t c);

/// How `config`, not measured yet, is expected to read: the measured configuration nearest it
/// (the fewest groups apart: the baseline or a trial of `evaluator`, the latest among equals),
/// its samples, median and interval scaled by the single_change_ratio of each group where
/// the two differ (config's over the neighbour's: effects of different knobs multiply), its
/// guard figures and measurement time as they are (the time of the nearest one not stopped as
/// clearly slower when the neighbour was: that one sample ran at its own slow rate), status ok. With `gains` false, never faster than the neighbour (the search's fewest:
/// every move it would make is refuted). Measures nothing.
TrialResult predicted_trial(const SearchSpace& space, const Evaluator& evaluator, const probe::Settings& config,
                              bool gains = true);

/// What a rehearsal came to: the new trials the strategy still runs, and their measurement time.
struct Rehearsal {
  std::size_t trials = 0;
  /// strategies::measurement_seconds summed over the predicted trials [s]: each takes its nearest
  /// measured configuration's (predicted_trial), so a close call's extra samples and a slow
  /// value's long sample recur where the search returns to them, not at the rate of the trials
  /// so far (on the 12 simulated runs of forecast_test the estimate within 30 % of the time
  /// then taken at 55 % of the trials from the third, against 41 % at the mean time per trial).
  double measured_s = 0.0;
};

/// How many new trials `strategy` still runs after those `evaluator` holds, were each to read
/// as predicted_trial says (`gains` as there), and how long they take: the strategy is run
/// again on an Evaluator of its own with the same
/// options, its trials so far taken from a store's history in the order it asks for them, so
/// the count follows every rule of the strategy (passes, ladder walks, the tied knobs' check,
/// the combination step) and the budget (--max-trials, --time-budget). At most `cap` new
/// trials. Deterministic strategies only: the rehearsal must ask for the trials so far in the
/// order the search did. Measures nothing; `strategy` must be a fresh instance (its run is
/// the rehearsal). Not counted as known: a resumed run's results the search has not asked for
/// again yet (the rehearsal predicts them).
Rehearsal rehearse(Strategy& strategy, const SearchSpace& space, const Evaluator& evaluator, std::size_t cap,
                   bool gains = true);

}  // namespace disktune::strategies
