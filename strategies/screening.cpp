// SPDX-License-Identifier: GPL-2.0-or-later
// Screening: every single change against the baseline, risky settings first.
#include "strategies/strategy.hpp"

#include <algorithm>

namespace disktune::strategies {
namespace {

bool group_is_risky(const Group& group) {
  return std::any_of(group.settings.begin(), group.settings.end(), [](probe::SettingId id) {
    return probe::setting_info(id).risk == probe::Risk::risky;
  });
}

void screen_group(const SearchSpace& space, Evaluator& evaluator, std::size_t g) {
  const auto baseline_choice = space.choice_of(space.baseline(), g);
  for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
    if (c == baseline_choice) continue;
    if (!evaluator.budget_left()) return;
    evaluator.evaluate(space.with_choice(space.baseline(), g, c));
  }
}

}  // namespace

void screen_single_changes(const SearchSpace& space, Evaluator& evaluator) {
  for (const bool risky : {true, false})
    for (std::size_t g = 0; g < space.groups().size(); ++g)
      if (group_is_risky(space.groups()[g]) == risky) screen_group(space, evaluator, g);
}

}  // namespace disktune::strategies
