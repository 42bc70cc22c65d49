// SPDX-License-Identifier: GPL-2.0-or-later
// Trial-count forecasts of the strategies (forecast.hpp, Strategy::forecast).
#include "strategies/forecast.hpp"

#include "strategies/coarse_screening.hpp"

#include <algorithm>

namespace disktune::strategies {

std::size_t screening_trials(const SearchSpace& space) {
  std::size_t count = 0;
  for (std::size_t g = 0; g < space.groups().size(); ++g)
    for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c)
      if (space.with_choice(space.baseline(), g, c) != space.baseline()) ++count;
  return count;
}

std::size_t unmeasured_moves(const SearchSpace& space, const Evaluator& evaluator, const probe::Settings& from,
                             const std::vector<std::size_t>& groups) {
  std::size_t count = 0;
  for (std::size_t g = 0; g < space.groups().size(); ++g) {
    if (!groups.empty() && std::find(groups.begin(), groups.end(), g) == groups.end()) continue;
    for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
      const auto config = space.with_choice(from, g, c);
      if (config != from && !evaluator.known(config) && !evaluator.quarantined(config)) ++count;
    }
  }
  return count;
}

TrialForecast Strategy::forecast(const SearchSpace& space, const Evaluator& evaluator) const {
  const std::size_t done = evaluator.trials().size();
  return {std::max(screening_trials(space), done) + 1, true, std::nullopt};
}

namespace {

// Groups the screening showed a significant gain in (a single-change trial clearly faster
// than the baseline) whose incumbent `best` still holds the baseline's choice: each is a move
// a later pass is likely to make, and every move costs one more pass.
std::size_t pending_moves(const SearchSpace& space, const Evaluator& evaluator, const probe::Settings& best) {
  std::size_t pending = 0;
  for (std::size_t g = 0; g < space.groups().size(); ++g) {
    if (space.choice_of(best, g) != space.choice_of(space.baseline(), g)) continue;
    for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
      const auto config = space.with_choice(space.baseline(), g, c);
      const auto* trial = config == space.baseline() ? nullptr : evaluator.measured(config);
      if (trial && trial->status == TrialStatus::ok && evaluator.clearly_faster(*trial, evaluator.baseline())) {
        ++pending;
        break;
      }
    }
  }
  return pending;
}

}  // namespace

TrialForecast coordinate_descent_forecast(const SearchSpace& space, const Evaluator& evaluator) {
  const std::size_t done = evaluator.trials().size();
  const std::size_t coarse = coarse_screening_trials(space);
  // The coarse screening runs whole (a bound or quarantine alone cuts it); after it, any pass
  // that moves nothing may end the search.
  if (done < coarse) return {std::max(done, 2 * coarse) + 1, true, coarse};
  const auto acting = acting_groups(space, evaluator);
  if (acting.empty()) return {done + 1, true, done};  // the combination of small gains at most
  const auto& best = evaluator.best().settings;
  // The acting groups' values around the baseline are measured only while the best is the
  // baseline: once the search moves, its passes go around the best (an sim run's count rose by
  // one with every trial while the baseline's never-measured moves stayed counted).
  const std::size_t deep = best == space.baseline() ? unmeasured_moves(space, evaluator, space.baseline(), acting) : 0;
  const std::size_t pass = best == space.baseline() ? 0 : unmeasured_moves(space, evaluator, best, acting);
  const std::size_t later = std::max(deep, pass) * pending_moves(space, evaluator, best) / 2;
  return {done + deep + pass + later + 1, true, done};
}

}  // namespace disktune::strategies
