// SPDX-License-Identifier: GPL-2.0-or-later
// queue/optimal_io_size of a held block device.
#include "probe/linux/optimal_io_size.hpp"

#include "probe/linux/sysfs.hpp"

#include <sys/sysmacros.h>

namespace disktune::probe {

std::optional<std::int64_t> optimal_io_size_bytes(const std::string& block_dir) {
  const auto bytes = read_sysfs_number(block_dir + "/queue/optimal_io_size");
  if (!bytes || *bytes < 0) return std::nullopt;
  return *bytes;
}

std::optional<std::int64_t> optimal_io_size_bytes(const HeldName& held) {
  if (held.fd < 0 || held.device_number == 0) return std::nullopt;
  return optimal_io_size_bytes(sysfs_block_dir(major(held.device_number), minor(held.device_number)));
}

}  // namespace disktune::probe
