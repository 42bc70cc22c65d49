// SPDX-License-Identifier: GPL-2.0-or-later
// Screening: every single change against the baseline, risky settings first.
#include "strategies/strategy.hpp"

#include <algorithm>
#include <vector>

namespace disktune::strategies {
bool group_is_risky(const Group& group) {
  return std::any_of(group.settings.begin(), group.settings.end(), [](probe::SettingId id) {
    return probe::setting_info(id).risk == probe::Risk::risky;
  });
}

namespace {

std::size_t settings_changed(const probe::Settings& from, const probe::Settings& to) {
  return static_cast<std::size_t>(std::count_if(to.begin(), to.end(), [&](const auto& setting) {
    const auto it = from.find(setting.first);
    return it == from.end() || it->second != setting.second;
  }));
}

// In a coupled group (using_dma with xfermode), choices that change one setting come first:
// if DMA on at the current mode fails, DMA itself is the suspect and no mode is tried with it.
// Returns false when the search ended (budget spent or stopped).
bool screen_group(const SearchSpace& space, Evaluator& evaluator, std::size_t g) {
  const auto& choices = space.groups()[g].choices;
  const auto baseline_choice = space.choice_of(space.baseline(), g);
  std::vector<std::size_t> order(choices.size());
  for (std::size_t c = 0; c < order.size(); ++c) order[c] = c;
  if (baseline_choice)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return settings_changed(choices[*baseline_choice], choices[a]) <
             settings_changed(choices[*baseline_choice], choices[b]);
    });
  for (const std::size_t c : order) {
    if (c == baseline_choice) continue;
    if (!evaluator.budget_left() || evaluator.evaluate(space.with_choice(space.baseline(), g, c)).ended()) return false;
  }
  return true;
}

}  // namespace

bool screen_risky_groups(const SearchSpace& space, Evaluator& evaluator) {
  for (std::size_t g = 0; g < space.groups().size(); ++g)
    if (group_is_risky(space.groups()[g]) && !screen_group(space, evaluator, g)) return false;
  return true;
}

void screen_single_changes(const SearchSpace& space, Evaluator& evaluator) {
  if (!screen_risky_groups(space, evaluator)) return;
  for (std::size_t g = 0; g < space.groups().size(); ++g)
    if (!group_is_risky(space.groups()[g]) && !screen_group(space, evaluator, g)) return;
}

}  // namespace disktune::strategies
