// SPDX-License-Identifier: GPL-2.0-or-later
// Confirmation round: the finalists and the baseline re-measured interleaved; the winner is decided there.
#pragma once

#include "strategies/evaluator.hpp"

#include <functional>
#include <vector>

namespace disktune::strategies {

/// Up to `count` finalists of a search: Evaluator::best() first (when it is not the
/// baseline), then the fastest trial, then the first by the winner rule's preference_key
/// (fewest risky changes, fewest changes, most as found, most at the kernel's default) of the
/// trials statistically tied with the fastest, then the first by it of all the trials that
/// beat the baseline (a tie in the search may hide any of them).
/// A trial that fails the guard (Evaluator::fails_guard) is never a finalist: the round
/// re-measures A only, so the guard is judged on the search's B figures.
/// When nothing beat the baseline significantly: up to `count` trials whose median beats the
/// baseline's by more than half the evaluator's gain threshold (intervals overlapping),
/// fastest first, for the confirmation round's longer samples to decide. Empty when there are
/// none (the answer is then "keep the baseline").
std::vector<TrialResult> finalists(const Evaluator& evaluator, std::size_t count = 3);

/// Measures the contenders interleaved (A B C A B C ...), `contenders[0]` being the
/// baseline in call 0 (see confirm's in_two_calls for later calls); returns one TrialResult
/// per contender, in the same order, with its samples.
/// `round` numbers the calls of one confirm(): 0 the round itself, 1, 2, ... the extra rounds
/// close contenders get (a stored round is keyed by it, so a resumed run never counts the same
/// samples twice).
using ConfirmRunner =
    std::function<std::vector<TrialResult>(const std::vector<probe::Settings>& contenders, int round)>;

/// Extra rounds at most while close contenders stay unseparated (confirm's default).
inline constexpr int kMaxExtraConfirmRounds = 3;

/// The confirmation round's outcome.
struct Confirmation {
  std::vector<TrialResult> results;  ///< [0] the baseline, then the finalists, as re-measured
  std::size_t winner = 0;            ///< index into results; 0 = keep the baseline
  bool far_ahead = false;            ///< measured in two calls, decided after the first: one contender far ahead
  bool alike = false;                ///< measured in two calls, decided after the first: the finalists read alike
                                     ///< (intervals within the minimum gain), every one far ahead of the baseline
  double noise = 0.0;                ///< round_noise of its results (fraction): 0 when they read alike
  double gain_threshold = 0.0;       ///< round_threshold: the gain it judged by (fraction)
};

/// The noise between the round's own trials (a fraction): for each ok contender with two
/// samples or more, the mean pairwise difference of its samples over their median (each
/// sample a unit of its own, a trial measured at another time: bench::repeat_noise's
/// observed figure), pooled over the contenders by their pairs. 0 when no contender has two
/// samples, or every contender's read alike (a simulated drive's).
double round_noise(const std::vector<TrialResult>& results);

/// The gain threshold (a fraction) the round judges by: max(`min_gain`, noise), the noise being
/// `noise_floor` (the noise between the baseline's trials before the search) unless the
/// round's own trials measured less (round_noise > 0 and below it). The round's figure is of
/// single samples, so it is the larger of the two when both are right; one below the noise
/// floor shows the floor, 3 trials' figure, too high: a newcomer's EMULATED ssd read 474.77,
/// 479.96 and 520.46 MB/s in its baseline's trials (noise 6.35 %), and its round, whose units
/// read within 0.8 %, could then not accept the 3.6 % it separated.
double round_threshold(const std::vector<TrialResult>& results, double min_gain, double noise_floor);

/// True when the fastest ok result of `results` is ahead of every other by twice `min_gain` (a
/// fraction), its interval clear of theirs (winner_rule's significantly_faster): more rounds
/// could not change the answer, so confirm's round ends after its first call. False when none
/// is ok. `results`: the baseline and the finalists, any order, each with its samples.
bool far_ahead(const std::vector<TrialResult>& results, double min_gain);

/// Re-measure the baseline and `candidates` with `runner` and decide with pick_winner on the
/// confirmation samples only, by the gain threshold round_threshold(results, `min_gain`,
/// `noise_floor`) (fractions; recomputed after each call: "`min_gain`" below is that threshold); each result keeps
/// the id of the search trial it confirms (0 for the baseline). Close contenders get more
/// samples: while the fastest contender's median is ahead of another's (the baseline's or a
/// finalist's) by more than `min_gain` but their intervals overlap, `runner` is called again
/// (rounds 1 .. `max_extra_rounds`) and its samples are added to each contender's; an extra
/// round in which a contender fails is dropped and ends the extension.
/// `in_two_calls`: the round itself is measured in two calls of `runner`, 0 and 1 (the caller
/// gives each its part of the rounds), and call 1 is made only when, after call 0, no
/// contender is ahead of every other by twice `min_gain` with its interval clear of theirs (a
/// contender that far ahead stays the answer whatever more samples say: a bad start's
/// 8x winner was confirmed over 6 rounds of the baseline's slow reads), nor do the finalists
/// read alike far ahead of the baseline (every one beats it by twice `min_gain`, intervals
/// clear, and the top of each finalist's interval is within `min_gain` of the bottom of every
/// other's: more samples could separate none of them, and the tie goes to the simpler). Call 1 and the extra
/// rounds after it (calls 2 .. `max_extra_rounds` + 1) leave out the baseline when every
/// finalist is that far ahead of it: their contenders are then not led by the baseline.
/// A contender failing in call 1 ends the round there.
/// `guard_tolerance`: a guard objective's tolerance (tune --tolerance, as a fraction), passed to
/// pick_winner: the round judges the guard as the search did. `kernel_defaults`: the device's
/// (probe::kernel_defaults), passed to pick_winner for its tie order.
Confirmation confirm(const probe::Settings& baseline, const std::vector<TrialResult>& candidates,
                     const ConfirmRunner& runner, double min_gain, int max_extra_rounds = kMaxExtraConfirmRounds,
                     bool in_two_calls = false, double guard_tolerance = 0.05,
                     const probe::Settings& kernel_defaults = {}, double noise_floor = 0.0);

}  // namespace disktune::strategies
