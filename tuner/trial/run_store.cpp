// SPDX-License-Identifier: GPL-2.0-or-later
// The memory-backed RunStore.
#include "tuner/trial/run_store.hpp"

namespace disktune::tuner {

probe::Result<Round> MemoryRunStore::confirm(const std::vector<probe::Settings>& contenders, int,
                                             const RoundMeasure& measure) {
  auto results = measure(contenders);
  if (!results) return results.error();
  return Round{std::move(*results), ""};
}

}  // namespace disktune::tuner
