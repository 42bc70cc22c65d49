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

// The measured ok configuration fewest groups from `config` (the latest among equals); with
// `timing`, none stopped as clearly slower (stopped_hopeless) but the baseline.
const TrialResult& nearest_measured(const SearchSpace& space, const Evaluator& evaluator, const probe::Settings& config,
                                    bool timing = false) {
  const TrialResult* nearest = &evaluator.baseline();
  std::size_t distance = groups_apart(space, nearest->settings, config);
  for (const auto& trial : evaluator.trials()) {
    if (trial.status != TrialStatus::ok || trial.samples.empty() || (timing && stopped_hopeless(trial))) continue;
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

TrialResult predicted_trial(const SearchSpace& space, const Evaluator& evaluator, const probe::Settings& config,
                            bool gains) {
  TrialResult trial = nearest_measured(space, evaluator, config);
  if (stopped_hopeless(trial)) {
    // Its one sample ran at its own slow rate; the values predicted from it (an unmeasured
    // ladder value borrows the nearest measured one's effect) mostly read unlike it: on the
    // EMULATED hdd and ssd read_ahead_kb 16-64 each took 1.4 s where read_ahead_kb 0 took 4.
    const TrialResult& timed = nearest_measured(space, evaluator, config, true);
    trial.measured_s = timed.measured_s;
    if (trial.guard) trial.guard->measured_s = timed.guard ? timed.guard->measured_s : 0.0;
  }
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
