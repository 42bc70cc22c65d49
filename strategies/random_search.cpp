// SPDX-License-Identifier: GPL-2.0-or-later
// random: screening, then random configurations up to its sample size.
#include "strategies/random_search.hpp"

#include "strategies/forecast.hpp"

#include <algorithm>
#include <random>

namespace disktune::strategies {

std::string_view RandomSearch::name() const { return "random"; }
std::string_view RandomSearch::description() const {
  return "screen, then a random 5 % of the legal combinations (a baseline for comparing strategies)";
}

std::size_t RandomSearch::sample_size(const SearchSpace& space) {
  const std::size_t legal = space.legal_count();
  return std::min(legal, std::max<std::size_t>(20, legal / 20));
}

void RandomSearch::run(const SearchSpace& space, Evaluator& evaluator) {
  screen_single_changes(space, evaluator);
  if (evaluator.stop()) return;
  std::mt19937_64 random(0x5eed);
  const std::size_t target = sample_size(space);
  // Draws are bounded: a space of mostly quarantined or already seen configurations ends it.
  for (std::size_t draws = 0; draws < 20 * target && evaluator.trials().size() < target && evaluator.budget_left();
       ++draws) {
    std::vector<std::size_t> index;
    for (const auto& group : space.groups())
      index.push_back(std::uniform_int_distribution<std::size_t>(0, group.choices.size() - 1)(random));
    const auto config = space.configuration(index);
    if (!evaluator.quarantined(config) && evaluator.evaluate(config).ended()) return;
  }
}

// The screening, then draws up to sample_size trials in all.
TrialForecast RandomSearch::forecast(const SearchSpace& space, const Evaluator& evaluator) const {
  return {std::max({screening_trials(space), sample_size(space), evaluator.trials().size()}), true, std::nullopt, std::nullopt, std::nullopt};
}

}  // namespace disktune::strategies
