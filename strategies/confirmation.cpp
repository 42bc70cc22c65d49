// SPDX-License-Identifier: GPL-2.0-or-later
// Confirmation round.
#include "strategies/confirmation.hpp"

#include "probe/core/assert.hpp"
#include "strategies/winner_rule.hpp"

#include <algorithm>

namespace disktune::strategies {

std::vector<TrialResult> finalists(const Evaluator& evaluator, std::size_t count) {
  std::vector<TrialResult> picked;
  const TrialResult& best = evaluator.best();
  if (best.id == 0 || count == 0) return picked;
  std::vector<const TrialResult*> beat;  // everything significantly faster than the baseline
  for (const auto& trial : evaluator.trials())
    if (evaluator.clearly_faster(trial, evaluator.baseline()) && !evaluator.fails_guard(trial)) beat.push_back(&trial);
  const auto& base = evaluator.baseline().settings;
  auto add = [&](const TrialResult& trial) {
    const bool seen = std::any_of(picked.begin(), picked.end(),
                                  [&](const TrialResult& p) { return p.settings == trial.settings; });
    if (!seen && picked.size() < count) picked.push_back(trial);
  };
  add(best);
  // The fastest, then the simplest (fewest risky changes, fewest changes) of those tied with
  // it: the search's tie may hide either, and the confirmation round decides between them.
  std::sort(beat.begin(), beat.end(),
            [](const TrialResult* a, const TrialResult* b) { return a->median > b->median; });
  if (beat.empty()) return picked;
  const TrialResult& fastest = *beat.front();
  add(fastest);
  auto simpler = [&](const TrialResult* a, const TrialResult* b) {
    return std::make_pair(risky_change_count(base, a->settings), changes_from(base, a->settings).size()) <
           std::make_pair(risky_change_count(base, b->settings), changes_from(base, b->settings).size());
  };
  std::stable_sort(beat.begin(), beat.end(), simpler);
  for (const auto* trial : beat)  // the simplest tied with the fastest
    if (!evaluator.clearly_faster(fastest, *trial)) {
      add(*trial);
      break;
    }
  for (const auto* trial : beat) add(*trial);  // else the simplest that beat the baseline
  return picked;
}

Confirmation confirm(const probe::Settings& baseline, const std::vector<TrialResult>& candidates,
                     const ConfirmRunner& runner, double min_gain) {
  std::vector<probe::Settings> contenders{baseline};
  for (const auto& c : candidates) contenders.push_back(c.settings);
  Confirmation round{runner(contenders), 0};
  DT_ASSERT(round.results.size() == contenders.size());
  round.results[0].id = 0;
  for (std::size_t i = 1; i < round.results.size(); ++i) round.results[i].id = candidates[i - 1].id;
  const std::vector<TrialResult> rivals(round.results.begin() + 1, round.results.end());
  if (const TrialResult* pick = pick_winner(round.results[0], rivals, baseline, min_gain))
    round.winner = static_cast<std::size_t>(pick - rivals.data()) + 1;
  return round;
}

}  // namespace disktune::strategies
