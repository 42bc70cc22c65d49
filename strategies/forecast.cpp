// SPDX-License-Identifier: GPL-2.0-or-later
// Trial-count forecasts of the strategies (forecast.hpp, Strategy::forecast).
#include "strategies/forecast.hpp"

#include "strategies/coarse_screening.hpp"
#include "strategies/coordinate_descent.hpp"
#include "strategies/rehearsal.hpp"

#include <algorithm>

namespace disktune::strategies {

std::size_t screening_trials(const SearchSpace& space) {
  std::size_t count = 0;
  for (std::size_t g = 0; g < space.groups().size(); ++g)
    for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c)
      if (space.with_choice(space.baseline(), g, c) != space.baseline()) ++count;
  return count;
}

TrialForecast Strategy::forecast(const SearchSpace& space, const Evaluator& evaluator) const {
  const std::size_t done = evaluator.trials().size();
  return {std::max(screening_trials(space), done) + 1, true, std::nullopt, std::nullopt};
}

namespace {

// The most trials a rehearsal runs past those done: a bound on a prediction gone round in
// circles, far above any default search here (the EMULATED ssd's took 65).
constexpr std::size_t kRehearsalCap = 1000;

}  // namespace

TrialForecast coordinate_descent_forecast(const SearchSpace& space, const Evaluator& evaluator) {
  const std::size_t done = evaluator.trials().size();
  const std::size_t coarse = coarse_screening_trials(space);
  CoordinateDescent as_measured, refuted;
  const std::size_t most = done + rehearse(as_measured, space, evaluator, kRehearsalCap);
  const std::size_t least = done + rehearse(refuted, space, evaluator, kRehearsalCap, false);
  // The expected count: halfway between the predicted gains holding and none holding, and half
  // the trials in hand again (least - done: the pass under way) for a move the predictions miss
  // (an effect that shows only beside another change: readahead's under DMA on the seed drive).
  // On the 12 simulated runs of forecast_test the count is within 20 % of the run's at 71 %
  // of the trials from the third (the count of unmeasured moves it replaces: 51 %). A floor of
  // twice the coarse screening while it runs changed nothing there and raised the EMULATED
  // hdd's count to 44 for a 34-trial run.
  const std::size_t total = least + (most > least ? (most - least) / 2 : 0) + (least - done) / 2;
  // The coarse screening runs whole (a bound or quarantine alone cuts it).
  const std::size_t fewest = std::min(std::max(least, std::min(coarse, total)), total);
  return {total, true, fewest, std::max(most, total)};
}

}  // namespace disktune::strategies
