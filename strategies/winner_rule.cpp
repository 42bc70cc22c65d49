// SPDX-License-Identifier: GPL-2.0-or-later
// The winner rule.
#include "strategies/winner_rule.hpp"

#include "strategies/evaluator.hpp"
#include "strategies/guard.hpp"

#include <algorithm>
#include <tuple>

namespace disktune::strategies {

bool significantly_faster(const TrialResult& a, const TrialResult& b, double min_gain) {
  if (a.status != TrialStatus::ok) return false;
  if (b.status != TrialStatus::ok) return true;
  return lower_bound(a) > upper_bound(b) && a.median > b.median * (1.0 + min_gain);
}

TrialResult with_sample_band(TrialResult trial, double band) {
  const bool one_sample = trial.samples.size() == 1 && !trial.latency && trial.ci_low == trial.ci_high;
  if (trial.status != TrialStatus::ok || !one_sample) return trial;
  trial.ci_low = std::max(0.0, trial.median * (1.0 - band));
  trial.ci_high = trial.median * (1.0 + band);
  return trial;
}

std::size_t risky_change_count(const probe::Settings& base, const probe::Settings& config) {
  std::size_t count = 0;
  for (const auto& [id, value] : changes_from(base, config))
    count += probe::setting_info(id).risk == probe::Risk::risky;
  return count;
}

namespace {

bool eligible(const TrialResult& trial, const TrialResult& baseline, double guard_tolerance) {
  return trial.status == TrialStatus::ok && !fails_guard(trial, baseline, guard_tolerance);
}

// The fastest of those that beat the baseline: a higher median whose interval reaches the
// baseline's (one slow sample) is no answer, and must not hide one that is.
const TrialResult* fastest_beating(const TrialResult& baseline, const std::vector<TrialResult>& candidates,
                                   double min_gain, double guard_tolerance) {
  const TrialResult* fastest = nullptr;
  for (const auto& trial : candidates) {
    const bool beats_baseline = eligible(trial, baseline, guard_tolerance) && significantly_faster(trial, baseline, min_gain);
    if (beats_baseline && (!fastest || trial.median > fastest->median)) fastest = &trial;
  }
  return fastest;
}

// Lower is better: fewer risky changes, fewer changes, then faster.
std::tuple<std::size_t, std::size_t, double> simplicity_key(const TrialResult& trial, const probe::Settings& base) {
  return {risky_change_count(base, trial.settings), changes_from(base, trial.settings).size(), -trial.median};
}

}  // namespace

std::optional<TieBreak> tie_break(const TrialResult& baseline, const std::vector<TrialResult>& candidates,
                                  const TrialResult& winner, const probe::Settings& base, double min_gain,
                                  double guard_tolerance) {
  const TrialResult* fastest = fastest_beating(baseline, candidates, min_gain, guard_tolerance);
  if (!fastest || fastest->settings == winner.settings) return std::nullopt;
  const auto winner_key = simplicity_key(winner, base);
  const auto faster_key = simplicity_key(*fastest, base);
  const std::size_t winner_risky = std::get<0>(winner_key), faster_risky = std::get<0>(faster_key);
  const std::size_t winner_changes = std::get<1>(winner_key), faster_changes = std::get<1>(faster_key);
  const bool by_risk = winner_risky != faster_risky;
  const std::string rule = by_risk ? "fewer risky changes (" + std::to_string(winner_risky) + " against " +
                                         std::to_string(faster_risky) + ")"
                                   : "fewer changes (" + std::to_string(winner_changes) + " against " +
                                         std::to_string(faster_changes) + ")";
  return TieBreak{fastest->id, fastest->median, rule};
}

const TrialResult* pick_winner(const TrialResult& baseline, const std::vector<TrialResult>& candidates,
                               const probe::Settings& base, double min_gain, double guard_tolerance) {
  const TrialResult* fastest = fastest_beating(baseline, candidates, min_gain, guard_tolerance);
  if (!fastest) return nullptr;
  auto key = [&](const TrialResult& t) { return simplicity_key(t, base); };
  const TrialResult* pick = fastest;
  for (const auto& trial : candidates) {
    if (!eligible(trial, baseline, guard_tolerance) || significantly_faster(*fastest, trial, min_gain)) continue;
    if (!significantly_faster(trial, baseline, min_gain)) continue;
    if (key(trial) < key(*pick)) pick = &trial;
  }
  return pick;
}

std::vector<Unseparated> unseparated_from(const std::vector<TrialResult>& candidates, const TrialResult& winner,
                                          double min_gain) {
  std::vector<Unseparated> tied;
  if (winner.status != TrialStatus::ok) return tied;
  for (const auto& trial : candidates)
    if (trial.status == TrialStatus::ok && trial.settings != winner.settings &&
        !significantly_faster(winner, trial, min_gain))
      tied.push_back({trial.id, trial.median});
  return tied;
}

}  // namespace disktune::strategies
