// SPDX-License-Identifier: GPL-2.0-or-later
// The memory-backed RunStore.
#include "tuner/trial/run_store.hpp"

namespace disktune::tuner {
namespace {

class StoreWriteCategory final : public std::error_category {
 public:
  [[nodiscard]] const char* name() const noexcept override { return "disktune store"; }
  [[nodiscard]] std::string message(int) const override { return "the run's store could not be written"; }
};

const StoreWriteCategory kStoreWrite;

}  // namespace

probe::Error store_write_failed(const std::string& why) {
  return probe::Error{std::error_code(1, kStoreWrite), "journal write failed: " + why, ""};
}

bool is_store_write_failure(const probe::Error& error) { return error.code.category() == kStoreWrite; }

probe::Result<Round> MemoryRunStore::confirm(const std::vector<probe::Settings>& contenders, int,
                                             const RoundMeasure& measure) {
  auto results = measure(contenders);
  if (!results) return results.error();
  return Round{std::move(*results), ""};
}

}  // namespace disktune::tuner
