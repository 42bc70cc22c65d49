// SPDX-License-Identifier: GPL-2.0-or-later
// SearchSpace: configurations as a product of group choices laid over the baseline.
#include "strategies/search_space.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>
#include <limits>
#include <set>

namespace disktune::strategies {

SearchSpace::SearchSpace(probe::Settings baseline, std::vector<Group> groups,
                         std::vector<Pruned> pruned, std::vector<Excluded> excluded)
    : baseline_(std::move(baseline)),
      groups_(std::move(groups)),
      pruned_(std::move(pruned)),
      excluded_(std::move(excluded)) {
  for (const auto& group : groups_) DT_ASSERT(!group.choices.empty());
}

std::size_t SearchSpace::legal_count() const {
  std::size_t count = 1;
  for (const auto& group : groups_) {
    if (count > std::numeric_limits<std::size_t>::max() / group.choices.size())
      return std::numeric_limits<std::size_t>::max();
    count *= group.choices.size();
  }
  return count;
}

// The value a tunable takes when its scheduler becomes the configuration's: as found when
// the baseline holds it, else the kernel's default where searched, else the first choice.
probe::SettingValue SearchSpace::arrival_value(const Group& group) const {
  const auto id = group.settings.front();
  if (const auto held = baseline_.find(id); held != baseline_.end()) return held->second;
  for (const auto& choice : group.choices)
    if (choice.at(id) == probe::tunable_default(id)) return choice.at(id);
  return group.choices.front().at(id);
}

probe::Settings SearchSpace::with_choice(const probe::Settings& base, std::size_t group,
                                         std::size_t choice) const {
  DT_ASSERT(group < groups_.size() && choice < groups_[group].choices.size());
  probe::Settings config = base;
  for (const auto& [id, value] : groups_[group].choices[choice]) config[id] = value;
  config = probe::applicable_only(std::move(config));
  for (const auto& g : groups_) {
    const auto id = g.settings.front();
    if (g.settings.size() == 1 && probe::is_scheduler_tunable(id) && probe::applicable(id, config) &&
        !config.count(id))
      config[id] = arrival_value(g);
  }
  return config;
}

probe::Settings SearchSpace::configuration(const std::vector<std::size_t>& indices) const {
  DT_ASSERT(indices.size() == groups_.size());
  probe::Settings config = baseline_;
  for (std::size_t g = 0; g < groups_.size(); ++g) config = with_choice(config, g, indices[g]);
  return config;
}

std::optional<std::size_t> SearchSpace::choice_of(const probe::Settings& config,
                                                  std::size_t group) const {
  DT_ASSERT(group < groups_.size());
  const auto& choices = groups_[group].choices;
  for (std::size_t c = 0; c < choices.size(); ++c) {
    const bool match = std::all_of(choices[c].begin(), choices[c].end(), [&](const auto& entry) {
      const auto it = config.find(entry.first);
      return it != config.end() && it->second == entry.second;
    });
    if (match) return c;
  }
  return std::nullopt;
}

bool SearchSpace::contains(const probe::Settings& config) const {
  if (probe::applicable_only(config) != config) return false;
  std::set<probe::SettingId> searched;
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    const auto& settings = groups_[g].settings;
    const bool absent_here = std::none_of(settings.begin(), settings.end(),
                                          [&](const auto id) { return probe::applicable(id, config); });
    if (absent_here) continue;  // tunables of another scheduler: the configuration has none
    if (!choice_of(config, g)) return false;
    searched.insert(groups_[g].settings.begin(), groups_[g].settings.end());
  }
  for (const auto& [id, value] : config) {
    if (searched.count(id)) continue;
    const auto it = baseline_.find(id);
    if (it == baseline_.end() || it->second != value) return false;
  }
  return true;
}

std::vector<probe::SettingValue> SearchSpace::values(probe::SettingId id) const {
  std::set<probe::SettingValue> distinct;
  for (const auto& group : groups_)
    for (const auto& choice : group.choices)
      if (const auto it = choice.find(id); it != choice.end()) distinct.insert(it->second);
  return {distinct.begin(), distinct.end()};
}

}  // namespace disktune::strategies
