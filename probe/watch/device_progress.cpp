// SPDX-License-Identifier: GPL-2.0-or-later
// Sectors read from /sys/block/<name>/stat.
#include "probe/watch/device_progress.hpp"

#include <fstream>

namespace disktune::probe {

std::optional<std::uint64_t> device_bytes_read(const std::string& kernel_name) {
  std::ifstream file("/sys/block/" + kernel_name + "/stat");
  std::uint64_t reads = 0;
  std::uint64_t merged = 0;
  std::uint64_t sectors = 0;
  if (!(file >> reads >> merged >> sectors)) return std::nullopt;
  return sectors * 512;
}

}  // namespace disktune::probe
