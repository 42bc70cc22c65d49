// SPDX-License-Identifier: GPL-2.0-or-later
// A loop device over a FUSE file is EMULATED.
#include "tuner/host/emulation.hpp"

#include "probe/linux/device_names.hpp"
#include "probe/watch/mountinfo.hpp"

namespace disktune::tuner {

std::string loop_emulation(const std::string& device_path) {
  const auto backing = probe::loop_backing_file(device_path);
  return backing ? probe::fuse_mount_type_of_file(*backing) : std::string();
}

std::string device_label(const std::string& device_path) {
  return loop_emulation(device_path).empty() ? device_path : device_path + " [EMULATED drive]";
}

}  // namespace disktune::tuner
