// SPDX-License-Identifier: GPL-2.0-or-later
// The kernel's stated defaults of a device's settings.
#include "probe/kernel_defaults.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>

namespace disktune::probe {

Settings kernel_defaults(std::optional<std::int64_t> optimal_io_size_bytes, std::int64_t page_size_bytes) {
  DT_ASSERT(page_size_bytes > 0);
  Settings defaults;
  for (const auto id : scheduler_tunable_settings()) defaults[id] = tunable_default(id);
  if (!optimal_io_size_bytes) return defaults;
  DT_ASSERT(*optimal_io_size_bytes >= 0);
  constexpr std::int64_t kVmReadaheadBytes = 128 * 1024;
  const std::int64_t pages = std::max(*optimal_io_size_bytes * 2 / page_size_bytes, kVmReadaheadBytes / page_size_bytes);
  const std::int64_t read_ahead_kb = pages * page_size_bytes / 1024;
  defaults[SettingId::read_ahead_kb] = SettingValue(read_ahead_kb);
  defaults[SettingId::readahead] = SettingValue(read_ahead_kb * 2);
  return defaults;
}

}  // namespace disktune::probe
