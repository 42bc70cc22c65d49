// SPDX-License-Identifier: GPL-2.0-or-later
// Which settings made a difference beyond the noise.
#include "strategies/acted.hpp"

#include <algorithm>
#include <optional>
#include <set>

namespace disktune::strategies {
namespace {

// The settings whose values differ between `a` and `b` (one holds it and the other not counts).
std::set<probe::SettingId> differing(const probe::Settings& a, const probe::Settings& b) {
  std::set<probe::SettingId> ids;
  for (const auto& [id, value] : a)
    if (const auto it = b.find(id); it == b.end() || it->second != value) ids.insert(id);
  for (const auto& [id, value] : b)
    if (!a.count(id)) ids.insert(id);
  return ids;
}

// The group holding every setting of `ids`; nullopt when they span groups or none holds them.
std::optional<std::size_t> one_group(const SearchSpace& space, const std::set<probe::SettingId>& ids) {
  for (std::size_t g = 0; g < space.groups().size(); ++g) {
    const auto& held = space.groups()[g].settings;
    if (std::all_of(ids.begin(), ids.end(),
                    [&](probe::SettingId id) { return std::find(held.begin(), held.end(), id) != held.end(); }))
      return g;
  }
  return std::nullopt;
}

}  // namespace

std::vector<probe::SettingId> acted_settings(const SearchSpace& space, const Evaluator& evaluator) {
  std::vector<const TrialResult*> measured{&evaluator.baseline()};
  for (const auto& trial : evaluator.trials()) measured.push_back(&trial);
  std::erase_if(measured, [](const TrialResult* t) { return t->status != TrialStatus::ok; });
  std::set<probe::SettingId> acted;
  for (std::size_t i = 0; i < measured.size(); ++i)
    for (std::size_t j = i + 1; j < measured.size(); ++j) {
      const auto ids = differing(measured[i]->settings, measured[j]->settings);
      if (ids.empty() || !one_group(space, ids)) continue;
      if (evaluator.apart(*measured[i], *measured[j])) acted.insert(ids.begin(), ids.end());
    }
  std::vector<probe::SettingId> ordered;
  for (const auto& group : space.groups())
    for (const auto id : group.settings)
      if (acted.count(id) && std::find(ordered.begin(), ordered.end(), id) == ordered.end()) ordered.push_back(id);
  return ordered;
}

}  // namespace disktune::strategies
