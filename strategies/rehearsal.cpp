// SPDX-License-Identifier: GPL-2.0-or-later
// A search's rehearsal on predicted trials (rehearsal.hpp).
#include "strategies/rehearsal.hpp"

#include "strategies/coarse_screening.hpp"
#include "strategies/trial_store.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace disktune::strategies {
namespace {

// The single change's measured ratio of group g's choice c, or nullopt.
std::optional<double> measured_ratio(const SearchSpace& space, const Evaluator& evaluator, std::size_t g,
                                     std::size_t c) {
  const double base = evaluator.baseline().median;
  const auto config = space.with_choice(space.baseline(), g, c);
  if (config == space.baseline()) return 1.0;
  const auto* trial = evaluator.measured(config);
  if (!trial || trial->status != TrialStatus::ok || base <= 0.0 || trial->median <= 0.0) return std::nullopt;
  // An effect within the noise is none: multiplied over several knobs, noise alone made
  // combinations "faster" and the rehearsal ran passes the search never did.
  return evaluator.apart(*trial, evaluator.baseline()) ? trial->median / base : 1.0;
}

// The ratio of the group's choice in `config` (1 when the group is absent there).
double ratio_in(const SearchSpace& space, const Evaluator& evaluator, const probe::Settings& config, std::size_t g) {
  const auto c = space.choice_of(config, g);
  return c ? single_change_ratio(space, evaluator, g, *c) : 1.0;
}

// Groups in which a and b hold different choices.
std::size_t groups_apart(const SearchSpace& space, const probe::Settings& a, const probe::Settings& b) {
  std::size_t apart = 0;
  for (std::size_t g = 0; g < space.groups().size(); ++g) apart += space.choice_of(a, g) != space.choice_of(b, g);
  return apart;
}

// The measured ok configuration fewest groups from `config` (the latest among equals).
const TrialResult& nearest_measured(const SearchSpace& space, const Evaluator& evaluator, const probe::Settings& config) {
  const TrialResult* nearest = &evaluator.baseline();
  std::size_t distance = groups_apart(space, nearest->settings, config);
  for (const auto& trial : evaluator.trials()) {
    if (trial.status != TrialStatus::ok || trial.samples.empty()) continue;
    if (const auto d = groups_apart(space, trial.settings, config); d <= distance) nearest = &trial, distance = d;
  }
  return *nearest;
}

// The evaluator's trials as a resumed run's history: each taken as it is, never measured again.
TrialHistory history_of(const Evaluator& evaluator) {
  TrialHistory history;
  for (const auto& trial : evaluator.trials()) history.results[{trial.settings, trial.quick}] = trial;
  return history;
}

}  // namespace

double single_change_ratio(const SearchSpace& space, const Evaluator& evaluator, std::size_t g, std::size_t c) {
  if (const auto ratio = measured_ratio(space, evaluator, g, c)) return *ratio;
  const auto order = ladder_of(space.groups()[g]);
  const auto at = std::find(order.begin(), order.end(), c);
  if (at == order.end()) return 1.0;
  const auto rank = at - order.begin();
  std::optional<double> nearest;
  long best = 0;
  for (long r = 0; r < static_cast<long>(order.size()); ++r) {
    const auto ratio = measured_ratio(space, evaluator, g, order[static_cast<std::size_t>(r)]);
    if (ratio && (!nearest || std::labs(r - rank) < best)) nearest = ratio, best = std::labs(r - rank);
  }
  return nearest.value_or(1.0);
}

namespace {

// The measurement time of a trial of `config`, predicted as the mean over the nearest measured
// configurations (ties averaged: with one knob every unmeasured value is one group from every
// measured one, and the latest alone made the time left swing 42 s -> 1 m 18 s -> 26 s),
// leaving out trials stopped as clearly slower (their one sample ran at its own slow rate:
// read_ahead_kb 0 took 4 s where 16-64 took 1.4 on the EMULATED disks), and the baseline when
// a search trial is as near (its 3-10 samples for the noise outlast a search trial's). On the
// simulated runs of forecast_test: the estimate within 30 % at 59 % of trials (the nearest's
// time alone: 55 %), the range held at 97 % (90 %).
struct PredictedTime {
  double measured_s = 0.0;
  double guard_s = 0.0;
};
// The search trials measured ok (but those stopped as clearly slower), or the baseline alone
// before there are any: a value no search trial is as near as the baseline (a knob's first
// value) takes their mean time, not the baseline's. The baseline's 3-10 samples for the noise
// (10 on a noisy device) outlast a search trial's: the EMULATED ssd's --max-trials 10 run read
// 117 s left where 49 s were.
std::vector<const TrialResult*> search_trials_of(const Evaluator& evaluator) {
  std::vector<const TrialResult*> trials;
  for (const auto& trial : evaluator.trials())
    if (trial.status == TrialStatus::ok && !trial.samples.empty() && !stopped_hopeless(trial)) trials.push_back(&trial);
  if (trials.empty()) trials.push_back(&evaluator.baseline());
  return trials;
}

PredictedTime predicted_time(const SearchSpace& space, const Evaluator& evaluator, const probe::Settings& config) {
  std::vector<const TrialResult*> nearest{&evaluator.baseline()};
  std::size_t distance = groups_apart(space, evaluator.baseline().settings, config);
  for (const auto& trial : evaluator.trials()) {
    if (trial.status != TrialStatus::ok || trial.samples.empty() || stopped_hopeless(trial)) continue;
    const auto d = groups_apart(space, trial.settings, config);
    if (d < distance || (d == distance && nearest.front() == &evaluator.baseline())) nearest.clear(), distance = d;
    if (d <= distance) nearest.push_back(&trial);
  }
  if (nearest.size() == 1 && nearest.front() == &evaluator.baseline()) nearest = search_trials_of(evaluator);
  PredictedTime time;
  for (const auto* trial : nearest) {
    time.measured_s += trial->measured_s / static_cast<double>(nearest.size());
    if (trial->guard) time.guard_s += trial->guard->measured_s / static_cast<double>(nearest.size());
  }
  return time;
}

}  // namespace

TrialResult predicted_trial(const SearchSpace& space, const Evaluator& evaluator, const probe::Settings& config,
                            bool gains) {
  TrialResult trial = nearest_measured(space, evaluator, config);
  const auto time = predicted_time(space, evaluator, config);
  trial.measured_s = time.measured_s;
  if (trial.guard) trial.guard->measured_s = time.guard_s;
  double factor = 1.0;
  for (std::size_t g = 0; g < space.groups().size(); ++g)
    if (space.choice_of(trial.settings, g) != space.choice_of(config, g))
      factor *= ratio_in(space, evaluator, config, g) / ratio_in(space, evaluator, trial.settings, g);
  if (!gains) factor = std::min(factor, 1.0);
  for (double& sample : trial.samples) sample *= factor;
  trial.median *= factor;
  trial.ci_low *= factor;
  trial.ci_high *= factor;
  trial.settings = config;
  trial.status = TrialStatus::ok;
  return trial;
}

Rehearsal rehearse(Strategy& strategy, const SearchSpace& space, const Evaluator& evaluator, std::size_t cap,
                   bool gains) {
  const std::size_t done = evaluator.trials().size();
  auto options = evaluator.options();
  options.max_trials = std::min(options.max_trials.value_or(done + cap), done + cap);
  MemoryTrialStore store("rehearsal", history_of(evaluator));
  // Each new trial is predicted from the rehearsal's own trials (predicted ones too).
  Rehearsal outcome;
  const Evaluator* rehearsal = nullptr;
  FunctionExecutor executor([&](const probe::Settings& config, const TrialRequest&) {
    auto trial = predicted_trial(space, *rehearsal, config, gains);
    ++outcome.trials;
    outcome.measured_s += measurement_seconds(trial);
    return trial;
  });
  Evaluator rehearsing(space, executor, store, evaluator.baseline(), options);
  rehearsal = &rehearsing;
  strategy.run(space, rehearsing);
  return outcome;
}

}  // namespace disktune::strategies
