// SPDX-License-Identifier: GPL-2.0-or-later
// A loop device over a FUSE file is EMULATED.
#include "tuner/host/emulation.hpp"

#include "probe/linux/device_names.hpp"
#include "probe/watch/mountinfo.hpp"

#include <sys/sysmacros.h>

namespace disktune::tuner {

// By the device number the loop holds, not a stat of its backing_file path: that path may
// name another file now (a FUSE mount over a plain loop's directory made it "EMULATED"), and a
// stat through a stopped FUSE server would wait for it.
std::string loop_emulation(const std::string& device_path) {
  const auto device = probe::loop_backing_device(device_path);
  if (!device) return {};
  return probe::fuse_mount_type(probe::read_mountinfo("/proc/self/mountinfo"),
                                std::to_string(major(*device)) + ":" + std::to_string(minor(*device)));
}

std::string device_label(const std::string& device_path) {
  return loop_emulation(device_path).empty() ? device_path : device_path + " [EMULATED drive]";
}

std::string page_cache_note(const std::string& device_path) {
  if (probe::loop_direct_io(device_path).value_or(true)) return {};
  return device_path + " reads its backing file through the page cache (loop/dio 0): unless a throttle caps "
                       "it, it reads at memory speed and varies widely from run to run, so its figures and answer "
                       "say little about a disk (README: the test beds)";
}

}  // namespace disktune::tuner
