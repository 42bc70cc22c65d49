// SPDX-License-Identifier: GPL-2.0-or-later
// Search progress with an estimated time left: where the search stands after each trial, the
// live status line a terminal shows, and the line per trial a log off a terminal gets.
#pragma once

#include "bench/objective.hpp"
#include "strategies/evaluator.hpp"
#include "strategies/strategy.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace disktune::tuner {

/// What the time left is computed from besides the search's own trials. Seconds are
/// measurement seconds (a simulated drive's virtual time, a real device's reading time), the
/// unit --time-budget counts in.
struct TimeLeftBasis {
  double before_search_s = 0.0;    ///< the baseline and its noise trials [s]
  std::optional<double> budget_s;  ///< --time-budget [s]: covers before_search_s, the search and the round
  double confirm_pass_s = 0.0;     ///< one pass of the confirmation round at its full rounds [s]
  double confirm_min_s = 0.0;      ///< the round at its fewest rounds, which a budget never cuts [s]
  int extra_passes = 0;            ///< extra passes the round may take when a pass is inconclusive
};

/// Where a search stands after a trial.
struct SearchProgress {
  std::size_t trials = 0;              ///< search trials recorded so far
  strategies::TrialForecast forecast;  ///< trials of the whole search (Strategy::forecast, capped by --max-trials)
  double before_search_s = 0.0;        ///< the baseline and its noise trials [measurement s]
  double measured_s = 0.0;             ///< the search's measurement time so far, the guard objective's included [s]
  /// Expected measurement time left [s]: the forecast's trials still to run at the mean
  /// measurement time per trial so far (the guard objective's samples included), plus one
  /// pass of the confirmation round; never more than the budget leaves (nor less than the
  /// round's minimum, which the budget keeps).
  double remaining_s = 0.0;
  /// As remaining_s with every extra pass the confirmation round may take [s].
  double remaining_max_s = 0.0;
  double best = 0.0;  ///< the best trial's score so far (Evaluator::best)
};

/// The progress of `strategy`'s search over `space` as `evaluator` has it now; the forecast
/// capped at `max_trials` (--max-trials ends the search first), the time left from `basis`.
SearchProgress search_progress(const strategies::Strategy& strategy, const strategies::SearchSpace& space,
                               const strategies::Evaluator& evaluator, const TimeLeftBasis& basis,
                               std::optional<std::size_t> max_trials);

/// `progress` with remaining_s and remaining_max_s computed from its trials, forecast and
/// measured_s and from `basis` (see SearchProgress).
SearchProgress with_time_left(SearchProgress progress, const TimeLeftBasis& basis);

/// "45 s", "2 m 05 s", "1 h 02 m" (rounded to whole seconds; negative as 0).
std::string duration_text(double seconds);

/// The status line (no newline): "trial 12 of about 31, 1 m 05 s, about 2 m 10 s to 4 m 30 s
/// left, best 6.56 MB/s" ("of 48" when the count is exact; the range's upper end is
/// remaining_max_s, with the confirmation round's extra passes, shown when it differs). On a
/// real device `elapsed_s` is the wall time since the run began (its baseline included), and
/// the time left is wall time too: measurement seconds scaled by the wall time each measured
/// second has cost so far (a trial also sets, reads back, flushes and checksums). On a simulated drive (`simulated`) both are the
/// simulated drive's virtual time and the line says so for each ("1 m 05 s simulated, about
/// 2 m 10 s simulated left").
std::string status_line(const SearchProgress& progress, const bench::Objective& objective, double elapsed_s,
                        bool simulated);

}  // namespace disktune::tuner
