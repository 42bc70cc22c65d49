// SPDX-License-Identifier: GPL-2.0-or-later
// Search progress with an estimated time left (issue 14 item 3): where the search stands
// after each trial, and the live status line a terminal shows.
#pragma once

#include "bench/objective.hpp"
#include "strategies/evaluator.hpp"
#include "strategies/strategy.hpp"

#include <cstddef>
#include <string>

namespace disktune::tuner {

/// Where a search stands after a trial. Seconds are measurement seconds (TrialResult::
/// measured_s: a simulated drive's virtual time, a real device's reading time).
struct SearchProgress {
  std::size_t trials = 0;            ///< search trials recorded so far
  strategies::TrialForecast forecast;  ///< trials of the whole search (Strategy::forecast)
  double measured_s = 0.0;           ///< the search's measurement time so far [s]
  /// Estimated measurement time left [s]: the forecast's trials still to run at the mean
  /// measurement time per trial so far, plus `confirmation_s` (the confirmation round's cost).
  double remaining_s = 0.0;
  double best = 0.0;                 ///< the best trial's score so far (Evaluator::best)
};

/// The progress of `strategy`'s search over `space` as `evaluator` has it now; `confirmation_s`
/// is what the confirmation round after the search is expected to cost [s].
SearchProgress search_progress(const strategies::Strategy& strategy, const strategies::SearchSpace& space,
                               const strategies::Evaluator& evaluator, double confirmation_s);

/// `progress` with its remaining_s recomputed for its (changed) forecast: the forecast's
/// trials still to run at the mean measurement time per trial so far, plus `confirmation_s`.
SearchProgress with_forecast(SearchProgress progress, double confirmation_s);

/// The terminal's status line (no newline): "trial 12 of about 31, 1 m 05 s, about 2 m 10 s
/// left, best 6.56 MB/s" ("of 48" when the count is exact); `elapsed_s` is wall time since
/// the run began. The time left is rounded to whole seconds.
std::string status_line(const SearchProgress& progress, const bench::Objective& objective, double elapsed_s);

}  // namespace disktune::tuner
