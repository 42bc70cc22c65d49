// SPDX-License-Identifier: GPL-2.0-or-later
// All fuzz targets (the unit tests' view) and the lookup by name.
#include "tests/support/fuzz_targets.hpp"

#include <vector>

namespace disktune::testing {

std::span<const FuzzTarget> fuzz_targets() {
  static const std::vector<FuzzTarget> all = [] {
    std::vector<FuzzTarget> targets;
    for (const auto group : {identify_fuzz_targets(), sim_fuzz_targets(), results_fuzz_targets()})
      targets.insert(targets.end(), group.begin(), group.end());
    return targets;
  }();
  return all;
}

const FuzzTarget* find_fuzz_target(std::string_view name) { return find_fuzz_target(fuzz_targets(), name); }

}  // namespace disktune::testing
