// SPDX-License-Identifier: GPL-2.0-or-later
// exhaustive: screening, then every legal configuration that holds no quarantined value.
#include "strategies/exhaustive.hpp"

#include "strategies/forecast.hpp"

#include <algorithm>

namespace disktune::strategies {

std::string_view Exhaustive::name() const { return "exhaustive"; }

std::string_view Exhaustive::description() const {
  return "screen each change alone, then try every legal combination (skipping failed values)";
}

void Exhaustive::run(const SearchSpace& space, Evaluator& evaluator) {
  screen_single_changes(space, evaluator);
  const auto& groups = space.groups();
  std::vector<std::size_t> index(groups.size(), 0);
  // Odometer over the choice indices: the last group varies fastest.
  while (evaluator.budget_left()) {
    const auto config = space.configuration(index);
    if (!evaluator.quarantined(config) && evaluator.evaluate(config).ended()) return;
    std::size_t g = groups.size();
    while (g > 0) {
      --g;
      if (++index[g] < groups[g].choices.size()) break;
      index[g] = 0;
      if (g == 0) return;
    }
    if (groups.empty()) return;
  }
}

// Every legal configuration but the baseline (measured before the search); quarantine may skip some.
TrialForecast Exhaustive::forecast(const SearchSpace& space, const Evaluator& evaluator) const {
  const std::size_t legal = space.legal_count();
  return {std::max(evaluator.trials().size(), legal > 0 ? legal - 1 : 0), false, std::nullopt, std::nullopt, std::nullopt};
}

}  // namespace disktune::strategies
