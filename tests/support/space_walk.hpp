// SPDX-License-Identifier: GPL-2.0-or-later
// every_configuration: all configurations of a (small) search space, for space tests.
#pragma once

#include "strategies/search_space.hpp"

#include <vector>

namespace disktune::testing {

/// Every configuration of `space` (the product of its groups' choices), first group fastest.
inline std::vector<probe::Settings> every_configuration(const strategies::SearchSpace& space) {
  std::vector<probe::Settings> all;
  const auto& groups = space.groups();
  std::vector<std::size_t> index(groups.size(), 0);
  for (;;) {
    all.push_back(space.configuration(index));
    std::size_t g = 0;
    while (g < groups.size() && ++index[g] == groups[g].choices.size()) index[g++] = 0;
    if (g == groups.size()) return all;
  }
}

}  // namespace disktune::testing
