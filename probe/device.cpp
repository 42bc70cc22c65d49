// SPDX-License-Identifier: GPL-2.0-or-later
// Default Device::restore: apply in order, then verify by reading back.
#include "probe/device.hpp"

namespace disktune::probe {

Result<void> Device::restore(const Settings& settings) {
  for (const auto& [id, value] : settings) {
    if (auto applied = apply(id, value); !applied) return applied.error();
  }
  return verify(settings);
}

Result<void> Device::verify(const Settings& settings) {
  for (const auto& [id, value] : settings) {
    auto now = read(id);
    if (!now) return now.error();
    if (*now != value)
      return Error{std::make_error_code(std::errc::io_error),
                   "restore " + std::string(setting_name(id)) + " to " + format_value(id, value) +
                       " (reads back " + format_value(id, *now) + ")",
                   path()};
  }
  return {};
}

}  // namespace disktune::probe
