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
  double reserve_s = 0.0;          ///< what the search leaves the round: it stops while this still fits [s]
  double unit_s = 0.0;             ///< a contender's unit of the round: a warm-up and a kept sample [s]
  double round_budget_s = 0.0;     ///< what a budget charges per round of the round (its worst case) [s]
  int rounds = 0;                  ///< rounds of the round without a budget (TrialSettings::confirm_rounds)
  int min_rounds = 0;              ///< the round's fewest rounds, which a budget never cuts
  std::size_t max_finalists = 3;   ///< finalists the round measures at most, besides the baseline
  double sample_slack = 1.0;       ///< how much longer a finalist's sample may run than the baseline's [ratio]
};

/// Where a search stands after a trial.
struct SearchProgress {
  std::size_t trials = 0;              ///< search trials recorded so far
  strategies::TrialForecast forecast;  ///< trials of the whole search (Strategy::forecast, capped by --max-trials)
  std::size_t finalists = 0;           ///< finalists the round would measure now (strategies::finalists)
  /// The first finalist is already far ahead of the baseline and every other finalist in the
  /// search's figures (twice the gain threshold, intervals clear): the round is expected to end
  /// after its first call, as strategies::confirm ends it when its own samples show the same.
  bool far_ahead = false;
  double before_search_s = 0.0;        ///< the baseline and its noise trials [measurement s]
  double measured_s = 0.0;             ///< the search's measurement time so far, the guard objective's included [s]
  double search_wall_s = 0.0;          ///< wall time the search's trials took so far (0: not known; a trial taken from the journal counts its measured seconds) [s]
  /// Measurement time the search's trials still take [s]: the forecast's trials left at the
  /// mean measurement time per trial so far (both objectives' samples, each once); with a
  /// budget no more than its room for them (the search starts trials while the round's reserve
  /// still fits; the last one runs to its end).
  double search_left_s = 0.0;
  /// Measurement time the fewest trials the search may still run take [s] (forecast.fewest,
  /// as search_left_s counts them): the search's part of the range's lower end.
  double search_least_s = 0.0;
  /// Measurement time the most trials the search may still run take [s] (forecast.most, as
  /// search_left_s counts them): the search's part of the range's upper end.
  double search_most_s = 0.0;
  /// The least measurement time left [s], the range's lower end: search_least_s plus one pass
  /// of the confirmation round with the finalists so far (as remaining_s counts it).
  double remaining_min_s = 0.0;
  /// Expected measurement time left [s]: search_left_s plus one pass of the confirmation
  /// round at its expected cost (the baseline and the finalists so far, a warm-up and a kept
  /// sample each, at the rounds a budget leaves); never more than the budget leaves (nor less
  /// than the round's minimum, which the budget keeps).
  double remaining_s = 0.0;
  /// As remaining_s with the search's most trials (search_most_s) and every extra pass of the
  /// round the budget leaves room for (strategies::kMaxExtraConfirmRounds without one: an
  /// unresolved pass is measured again, up to that many times),
  /// as many finalists as the trials left can still add and their samples at sample_slack [s].
  double remaining_max_s = 0.0;
  double best = 0.0;  ///< the score of the answer so far (Evaluator::best; not the highest measured)
};

/// The progress of `strategy`'s search over `space` as `evaluator` has it now; the forecast
/// (its total and its fewest) capped at `max_trials` (--max-trials ends the search first: exact
/// then when the fewest reaches it too), the time left from `basis`.
SearchProgress search_progress(const strategies::Strategy& strategy, const strategies::SearchSpace& space,
                               const strategies::Evaluator& evaluator, const TimeLeftBasis& basis,
                               std::optional<std::size_t> max_trials);

/// `progress` with search_left_s, search_least_s, search_most_s, remaining_min_s, remaining_s and
/// remaining_max_s computed from its trials, forecast, finalists and measured_s and from
/// `basis` (see SearchProgress).
SearchProgress with_time_left(SearchProgress progress, const TimeLeftBasis& basis);

/// "45 s", "2 m 05 s", "1 h 02 m" (rounded to whole seconds; negative as 0).
std::string duration_text(double seconds);

/// The status line (no newline): "trial 12 of about 31, 1 m 05 s, about 2 m 10 s left (1 m 40 s
/// to 4 m 30 s), answer so far 6.56 MB/s" ("of 48" when the count is exact; "about" remaining_s, the
/// range remaining_min_s to remaining_max_s, left out when both ends read as the estimate).
/// On a real device `elapsed_s` is the wall time since the run began (its baseline
/// included; a resume goes on from the interrupted run's, TrialStore::run_seconds, not
/// counting the pause between), and the time left is wall time too: the search's part and the
/// round's at the wall time each of the search's measured seconds has cost so far
/// (search_wall_s: a trial, and each unit of the round, also starts a child, sets, reads back,
/// flushes and checksums). On a simulated drive (`simulated`) both are the simulated drive's virtual time
/// and the line says so for each ("1 m 05 s simulated, about 2 m 10 s simulated left (…)").
std::string status_line(const SearchProgress& progress, const bench::Objective& objective, double elapsed_s,
                        bool simulated);

}  // namespace disktune::tuner
