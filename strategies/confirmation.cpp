// SPDX-License-Identifier: GPL-2.0-or-later
// Confirmation round.
#include "strategies/confirmation.hpp"

#include "bench/stats.hpp"
#include "probe/core/assert.hpp"
#include "strategies/winner_rule.hpp"

#include <algorithm>
#include <numeric>

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

// 0, 1, ..., n - 1: every contender's index.
std::vector<std::size_t> all_indices(std::size_t n) {
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  return all;
}

// The fastest ok result among `playing` (indices into results); nullptr when none is ok.
const TrialResult* fastest_of(const std::vector<TrialResult>& results, const std::vector<std::size_t>& playing) {
  const TrialResult* fastest = nullptr;
  for (const std::size_t i : playing)
    if (results[i].status == TrialStatus::ok && (!fastest || results[i].median > fastest->median)) fastest = &results[i];
  return fastest;
}

// True when the fastest of `playing` is ahead of another of them (the baseline or a finalist)
// by more than `min_gain` without the samples separating them.
bool needs_more_samples(const std::vector<TrialResult>& results, const std::vector<std::size_t>& playing,
                        double min_gain) {
  const TrialResult* fastest = fastest_of(results, playing);
  if (!fastest) return false;
  return std::any_of(playing.begin(), playing.end(),
                     [&](std::size_t i) { return unresolved(*fastest, results[i], min_gain); });
}

// True when the baseline ([0]) is ahead of no finalist (every one beats it by twice `min_gain`,
// intervals clear) and the finalists read alike: for every two, even the top of one's interval
// is within `min_gain` of the bottom of the other's. More rounds could then make none of them
// significantly faster than another (the tie goes to the simpler either way) nor bring the
// baseline back: on a quiet device (the throttled bed's 0.04 % noise) three finalists at the
// same cap took 36 s of a 303 s tune in rounds that could not change the answer.
bool alike_far_ahead_of_baseline(const std::vector<TrialResult>& results, double min_gain) {
  if (results.size() < 2 || results.front().status != TrialStatus::ok) return false;
  for (std::size_t i = 1; i < results.size(); ++i) {
    if (!significantly_faster(results[i], results.front(), 2.0 * min_gain)) return false;
    for (std::size_t j = 1; j < results.size(); ++j)
      if (i != j && upper_bound(results[i]) > lower_bound(results[j]) * (1.0 + min_gain)) return false;
  }
  return true;
}

// The contenders a round's second call measures: every one, but the baseline ([0]) when every
// finalist is ahead of it by twice `min_gain` with its interval clear: more of its samples
// could not change the answer. The finalists all keep their rounds: which of them wins may
// turn on the last (dropping the one far behind the fastest cost 2 % of the simulated
// rand-read-iops runs their optimum).
std::vector<std::size_t> still_measured(const std::vector<TrialResult>& results, double min_gain) {
  std::vector<std::size_t> all = all_indices(results.size());
  const TrialResult& base = results.front();
  const bool behind = base.status == TrialStatus::ok && results.size() > 1 &&
                      std::all_of(results.begin() + 1, results.end(), [&](const TrialResult& r) {
                        return significantly_faster(r, base, 2.0 * min_gain);
                      });
  if (behind) all.erase(all.begin());
  return all;
}

std::vector<probe::Settings> settings_of(const std::vector<probe::Settings>& contenders,
                                         const std::vector<std::size_t>& playing) {
  std::vector<probe::Settings> picked;
  for (const std::size_t i : playing) picked.push_back(contenders[i]);
  return picked;
}

// Appends `more`'s samples and measured time (more[k] measured contender playing[k]) to
// `into` and recomputes the statistics. false when a contender failed in `more`.
bool merge_round(std::vector<TrialResult>& into, const std::vector<std::size_t>& playing,
                 const std::vector<TrialResult>& more) {
  if (more.size() != playing.size()) return false;
  for (std::size_t k = 0; k < playing.size(); ++k) {
    if (more[k].status != TrialStatus::ok) return false;
    TrialResult& kept = into[playing[k]];
    kept.samples.insert(kept.samples.end(), more[k].samples.begin(), more[k].samples.end());
    // A pooled percentile pools the new round's completions too; a round without them
    // leaves only the samples' median to judge by.
    if (kept.latency && more[k].latency && kept.latency->fraction == more[k].latency->fraction)
      bench::add_bins(*kept.latency, more[k].latency->bins);
    else
      kept.latency.reset();
    kept.measured_s += more[k].measured_s;
    summarize_samples(kept);
  }
  return true;
}

// The round's ids (each result the search trial it confirms, 0 the baseline) and its winner.
Confirmation decided(Confirmation round, const std::vector<TrialResult>& candidates, const probe::Settings& baseline,
                     double min_gain, double guard_tolerance, const probe::Settings& kernel_defaults) {
  round.results[0].id = 0;
  for (std::size_t i = 1; i < round.results.size(); ++i) round.results[i].id = candidates[i - 1].id;
  const std::vector<TrialResult> rivals(round.results.begin() + 1, round.results.end());
  if (const TrialResult* pick = pick_winner(round.results[0], rivals, baseline, min_gain, guard_tolerance, kernel_defaults))
    round.winner = static_cast<std::size_t>(pick - rivals.data()) + 1;
  return round;
}

}  // namespace

double round_noise(const std::vector<TrialResult>& results) {
  double weighted = 0.0, pairs = 0.0;
  for (const auto& result : results) {
    if (result.status != TrialStatus::ok || result.samples.size() < 2) continue;
    std::vector<std::vector<double>> units;
    for (const double sample : result.samples) units.push_back({sample});
    const double n = static_cast<double>(result.samples.size());
    weighted += bench::repeat_noise(units).observed_pct / 100.0 * n * (n - 1) / 2;
    pairs += n * (n - 1) / 2;
  }
  return pairs > 0.0 ? weighted / pairs : 0.0;
}

double round_threshold(const std::vector<TrialResult>& results, double min_gain, double noise_floor) {
  const double measured = round_noise(results);
  return std::max(min_gain, measured > 0.0 ? std::min(noise_floor, measured) : noise_floor);
}

// The round's fastest contender is ahead of every other by twice `min_gain`, its
// interval clear of theirs: more rounds could not change the answer. False when none is ok.
bool far_ahead(const std::vector<TrialResult>& results, double min_gain) {
  const TrialResult* fastest = fastest_of(results, all_indices(results.size()));
  if (!fastest) return false;
  return std::all_of(results.begin(), results.end(), [&](const TrialResult& r) {
    return &r == fastest || significantly_faster(*fastest, r, 2.0 * min_gain);
  });
}

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
  // The fastest, then the first by the winner rule's order (its key, then the settings' fixed
  // order: Evaluator::best() as a rule) of those tied with it: the search's tie may hide either,
  // and the confirmation round decides between them.
  std::sort(beat.begin(), beat.end(),
            [](const TrialResult* a, const TrialResult* b) { return a->median > b->median; });
  if (beat.empty()) return picked;
  const TrialResult& fastest = *beat.front();
  add(fastest);
  auto simpler = [&](const TrialResult* a, const TrialResult* b) {
    return std::make_pair(preference_key(a->settings, base, evaluator.kernel_defaults()), a->settings) <
           std::make_pair(preference_key(b->settings, base, evaluator.kernel_defaults()), b->settings);
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
                     const ConfirmRunner& runner, double min_gain, int max_extra_rounds, bool in_two_calls,
                     double guard_tolerance, const probe::Settings& kernel_defaults, double noise_floor) {
  std::vector<probe::Settings> contenders{baseline};
  for (const auto& c : candidates) contenders.push_back(c.settings);
  Confirmation round{runner(contenders, 0), 0};
  DT_ASSERT(round.results.size() == contenders.size());
  // The round's noise and threshold, from its samples so far: set after every call.
  const auto rejudge = [&] {
    round.noise = round_noise(round.results);
    round.gain_threshold = round_threshold(round.results, min_gain, noise_floor);
  };
  const auto decide = [&] {
    const double threshold = round.gain_threshold;
    return decided(std::move(round), candidates, baseline, threshold, guard_tolerance, kernel_defaults);
  };
  rejudge();
  std::vector<std::size_t> playing = all_indices(contenders.size());
  int next = 1;  // the runner's next call
  if (in_two_calls) {
    // No second call when one contender is far ahead, or the finalists read alike far ahead of
    // the baseline; it leaves out a baseline far behind every finalist. A contender failing in
    // it ends the round with the first call's samples.
    round.far_ahead = far_ahead(round.results, round.gain_threshold);
    round.alike = !round.far_ahead && alike_far_ahead_of_baseline(round.results, round.gain_threshold);
    playing = still_measured(round.results, round.gain_threshold);
    const bool any_ok = std::any_of(round.results.begin(), round.results.end(),
                                    [](const TrialResult& r) { return r.status == TrialStatus::ok; });
    // A baseline that did not measure ends the round: nothing can be confirmed against it.
    const bool baseline_ok = round.results.front().status == TrialStatus::ok;
    if (!baseline_ok) return decide();
    if (!round.far_ahead && !round.alike && any_ok) {
      const bool merged = merge_round(round.results, playing, runner(settings_of(contenders, playing), 1));
      rejudge();
      if (!merged) return decide();
    }
    next = 2;
  }
  for (int extra = 0; extra < max_extra_rounds && needs_more_samples(round.results, playing, round.gain_threshold);
       ++extra) {
    const bool merged = merge_round(round.results, playing, runner(settings_of(contenders, playing), next + extra));
    rejudge();
    if (!merged) break;
  }
  return decide();
}

}  // namespace disktune::strategies
