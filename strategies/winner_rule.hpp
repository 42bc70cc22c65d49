// SPDX-License-Identifier: GPL-2.0-or-later
// The winner rule: significantly faster than the baseline, ties go to fewer and safer changes.
#pragma once

#include "strategies/trial.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace disktune::strategies {

/// True when `a` is significantly faster than `b`: `a` is ok and either `b` is not, or
/// a's median interval lies entirely above b's (lower_bound(a) > upper_bound(b)) and a's
/// median exceeds b's by more than `min_gain` (a fraction: the noise floor, at least the
/// evaluator's minimum gain).
bool significantly_faster(const TrialResult& a, const TrialResult& b, double min_gain);

/// `trial` as a comparison beyond the noise sees it: a trial measured by one kept sample with
/// a point interval and no pooled percentile (stopped `no gain` or `clearly slower`: it has no
/// interval of its own) gets the interval value × (1 ± `band`), `band` a fraction (the
/// evaluator's: kNoGainSigmas times one sample's noise, the band the gain bar and the hopeless
/// stop judged that one sample by), its low end floored at 0; any other trial is returned as it is.
TrialResult with_sample_band(TrialResult trial, double band);

/// Number of changed settings from `base` that the hdparm manual calls risky.
std::size_t risky_change_count(const probe::Settings& base, const probe::Settings& config);

/// Number of settings of `config` that hold the value `reference` holds (the settings as
/// found, or the kernel's defaults: probe::kernel_defaults).
std::size_t settings_equal_to(const probe::Settings& reference, const probe::Settings& config);

/// The winner rule's order between candidates not separated from the fastest, as a key where
/// lower is preferred: fewer risky changes from `base`, fewer changes, more settings as found
/// (equal to `base`'s), more settings at the kernel's default for the device
/// (`kernel_defaults`, probe::kernel_defaults). Measurement plays no part in it.
using PreferenceKey = std::tuple<std::size_t, std::size_t, std::int64_t, std::int64_t>;
PreferenceKey preference_key(const probe::Settings& config, const probe::Settings& base,
                             const probe::Settings& kernel_defaults);

/// The winner among `candidates` against `baseline`: the fastest (by median) of the ok
/// candidates that are significantly_faster than the baseline (a faster median whose interval
/// reaches the baseline's is no answer and does not hide one that is); among the candidates statistically tied
/// with it (not significantly slower) that also beat the baseline, the first by preference_key
/// (fewest risky changes, fewest changes, most settings as found, most at `kernel_defaults`);
/// among those still level, one that another of them is significantly faster than is out, and
/// the rest go in the settings' fixed order (probe::Settings' `<`: by setting, then value), so
/// the answer never depends on which was measured first (docs/statistics.md, "Winner rule").
/// A candidate that fails the guard
/// (strategies/guard.hpp fails_guard with `guard_tolerance`, a fraction) is no candidate:
/// when every faster one fails it, the answer is to keep the baseline. nullptr = keep the baseline.
const TrialResult* pick_winner(const TrialResult& baseline, const std::vector<TrialResult>& candidates,
                               const probe::Settings& base, double min_gain, double guard_tolerance = 0.05,
                               const probe::Settings& kernel_defaults = {});

/// A tie pick_winner broke: the candidate with the highest median among those that beat the
/// baseline is not the winner, because it is not significantly faster than the winner and the
/// winner comes first in the rule's order (docs/statistics.md, "Winner rule").
struct TieBreak {
  int faster_trial_id = 0;     ///< the candidate with the higher median (its trial id)
  double faster_median = 0.0;  ///< its median score (the objective's score unit)
  /// Why the winner won the tie, the first step of the order that tells them apart: "fewer
  /// risky changes (0 against 1)", "fewer changes (1 against 2)", "more settings as found (5
  /// against 4)", "more settings at the kernel's default (1 against 0)" or "the settings'
  /// fixed order (read_ahead_kb 128 before 256)".
  std::string rule;
};

/// The tie pick_winner broke to choose `winner` (one of `candidates`) with the same arguments;
/// nullopt when the winner is the fastest candidate that beat the baseline.
std::optional<TieBreak> tie_break(const TrialResult& baseline, const std::vector<TrialResult>& candidates,
                                  const TrialResult& winner, const probe::Settings& base, double min_gain,
                                  double guard_tolerance = 0.05, const probe::Settings& kernel_defaults = {});

/// A candidate the winner was not separated from: `winner` is not significantly_faster than it
/// (their intervals overlap, or the winner is ahead by less than the minimum gain), so either
/// reads as fast within the noise (docs/statistics.md, "Winner rule").
struct Unseparated {
  int trial_id = 0;     ///< the candidate's trial id
  double median = 0.0;  ///< its median score (the objective's score unit)
};

/// The ok candidates other than `winner` (compared by settings) that `winner` is not
/// significantly_faster than with threshold `min_gain` (a fraction), in the order given: the
/// confirmation round's finalists that tied with the answer after its last extra pass. Empty
/// when the winner is clear of every one, or is not ok.
std::vector<Unseparated> unseparated_from(const std::vector<TrialResult>& candidates, const TrialResult& winner,
                                          double min_gain);

}  // namespace disktune::strategies
