// SPDX-License-Identifier: GPL-2.0-or-later
// The winner rule.
#include "strategies/winner_rule.hpp"

#include "strategies/evaluator.hpp"
#include "strategies/guard.hpp"

#include <tuple>

namespace disktune::strategies {

bool significantly_faster(const TrialResult& a, const TrialResult& b, double min_gain) {
  if (a.status != TrialStatus::ok) return false;
  if (b.status != TrialStatus::ok) return true;
  return lower_bound(a) > upper_bound(b) && a.median > b.median * (1.0 + min_gain);
}

std::size_t risky_change_count(const probe::Settings& base, const probe::Settings& config) {
  std::size_t count = 0;
  for (const auto& [id, value] : changes_from(base, config))
    count += probe::setting_info(id).risk == probe::Risk::risky;
  return count;
}

const TrialResult* pick_winner(const TrialResult& baseline, const std::vector<TrialResult>& candidates,
                               const probe::Settings& base, double min_gain, double guard_tolerance) {
  auto eligible = [&](const TrialResult& t) {
    return t.status == TrialStatus::ok && !fails_guard(t, baseline, guard_tolerance);
  };
  // The fastest of those that beat the baseline: a higher median whose interval reaches the
  // baseline's (one slow sample) is no answer, and must not hide one that is.
  const TrialResult* fastest = nullptr;
  for (const auto& trial : candidates) {
    const bool beats_baseline = eligible(trial) && significantly_faster(trial, baseline, min_gain);
    if (beats_baseline && (!fastest || trial.median > fastest->median)) fastest = &trial;
  }
  if (!fastest) return nullptr;
  // Lower key is better: fewer risky changes, fewer changes, then faster.
  auto key = [&](const TrialResult& t) {
    return std::make_tuple(risky_change_count(base, t.settings), changes_from(base, t.settings).size(),
                           -t.median);
  };
  const TrialResult* pick = fastest;
  for (const auto& trial : candidates) {
    if (!eligible(trial) || significantly_faster(*fastest, trial, min_gain)) continue;
    if (!significantly_faster(trial, baseline, min_gain)) continue;
    if (key(trial) < key(*pick)) pick = &trial;
  }
  return pick;
}

}  // namespace disktune::strategies
