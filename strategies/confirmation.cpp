// SPDX-License-Identifier: GPL-2.0-or-later
// Confirmation round.
#include "strategies/confirmation.hpp"

#include "probe/core/assert.hpp"
#include "strategies/winner_rule.hpp"

#include <algorithm>

namespace disktune::strategies {
namespace {

// Trials (the guard passed) whose median beats the baseline's by more than half the gain threshold although their
// intervals overlap it, fastest first: candidates the search's few samples could not separate.
std::vector<TrialResult> promising(const Evaluator& evaluator, std::size_t count) {
  std::vector<const TrialResult*> close;
  const TrialResult& base = evaluator.baseline();
  for (const auto& trial : evaluator.trials())
    if (trial.status == TrialStatus::ok && !evaluator.fails_guard(trial) &&
        trial.median > base.median * (1.0 + evaluator.gain_threshold() / 2))
      close.push_back(&trial);
  std::sort(close.begin(), close.end(),
            [](const TrialResult* a, const TrialResult* b) { return a->median > b->median; });
  std::vector<TrialResult> picked;
  for (const auto* trial : close) {
    const bool seen = std::any_of(picked.begin(), picked.end(),
                                  [&](const TrialResult& p) { return p.settings == trial->settings; });
    if (!seen && picked.size() < count) picked.push_back(*trial);
  }
  return picked;
}

// `a`'s median is ahead of `b`'s by more than `min_gain` but their intervals overlap.
bool unresolved(const TrialResult& a, const TrialResult& b, double min_gain) {
  return a.status == TrialStatus::ok && b.status == TrialStatus::ok && a.median > b.median * (1.0 + min_gain) &&
         !significantly_faster(a, b, min_gain);
}

// True when the round's fastest contender is ahead of another contender (the baseline or a
// finalist) by more than `min_gain` without the samples separating them.
bool needs_more_samples(const std::vector<TrialResult>& results, double min_gain) {
  const TrialResult* fastest = nullptr;
  for (const auto& r : results)
    if (r.status == TrialStatus::ok && (!fastest || r.median > fastest->median)) fastest = &r;
  if (!fastest) return false;
  return std::any_of(results.begin(), results.end(),
                     [&](const TrialResult& r) { return unresolved(*fastest, r, min_gain); });
}

// True when the round's fastest contender is ahead of every other by twice `min_gain`, its
// interval clear of theirs: more rounds could not change the answer (or nothing is ok).
bool far_ahead(const std::vector<TrialResult>& results, double min_gain) {
  const TrialResult* fastest = nullptr;
  for (const auto& r : results)
    if (r.status == TrialStatus::ok && (!fastest || r.median > fastest->median)) fastest = &r;
  if (!fastest) return true;
  return std::all_of(results.begin(), results.end(), [&](const TrialResult& r) {
    return &r == fastest || significantly_faster(*fastest, r, 2.0 * min_gain);
  });
}

// Appends `more`'s samples and measured time to `into` (same contenders, same order) and
// recomputes the statistics. false when a contender failed in `more`.
bool merge_round(std::vector<TrialResult>& into, const std::vector<TrialResult>& more) {
  if (more.size() != into.size()) return false;
  for (std::size_t i = 0; i < into.size(); ++i) {
    if (more[i].status != TrialStatus::ok) return false;
    into[i].samples.insert(into[i].samples.end(), more[i].samples.begin(), more[i].samples.end());
    // A pooled percentile pools the new round's completions too; a round without them
    // leaves only the samples' median to judge by.
    if (into[i].latency && more[i].latency && into[i].latency->fraction == more[i].latency->fraction)
      bench::add_bins(*into[i].latency, more[i].latency->bins);
    else
      into[i].latency.reset();
    into[i].measured_s += more[i].measured_s;
    summarize_samples(into[i]);
  }
  return true;
}

// The round's ids (each result the search trial it confirms, 0 the baseline) and its winner.
Confirmation decided(Confirmation round, const std::vector<TrialResult>& candidates, const probe::Settings& baseline,
                     double min_gain) {
  round.results[0].id = 0;
  for (std::size_t i = 1; i < round.results.size(); ++i) round.results[i].id = candidates[i - 1].id;
  const std::vector<TrialResult> rivals(round.results.begin() + 1, round.results.end());
  if (const TrialResult* pick = pick_winner(round.results[0], rivals, baseline, min_gain))
    round.winner = static_cast<std::size_t>(pick - rivals.data()) + 1;
  return round;
}

}  // namespace

std::vector<TrialResult> finalists(const Evaluator& evaluator, std::size_t count) {
  std::vector<TrialResult> picked;
  const TrialResult& best = evaluator.best();
  if (count == 0) return picked;
  if (best.id == 0) return promising(evaluator, count);
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
                     const ConfirmRunner& runner, double min_gain, int max_extra_rounds, bool in_two_calls) {
  std::vector<probe::Settings> contenders{baseline};
  for (const auto& c : candidates) contenders.push_back(c.settings);
  Confirmation round{runner(contenders, 0), 0};
  DT_ASSERT(round.results.size() == contenders.size());
  // The round's second call only when no contender is already far ahead; a contender failing
  // in it ends the round with the first call's samples.
  round.far_ahead = in_two_calls && far_ahead(round.results, min_gain);
  if (in_two_calls && !round.far_ahead && !merge_round(round.results, runner(contenders, 1)))
    return decided(std::move(round), candidates, baseline, min_gain);
  const int first_extra = in_two_calls ? 2 : 1;
  for (int extra = 0; extra < max_extra_rounds && needs_more_samples(round.results, min_gain); ++extra)
    if (!merge_round(round.results, runner(contenders, first_extra + extra))) break;
  return decided(std::move(round), candidates, baseline, min_gain);
}

}  // namespace disktune::strategies
