// SPDX-License-Identifier: GPL-2.0-or-later
// DeviceHealth: the first wedged child names the device's state for the rest of the run.
#include "tuner/trial/device_health.hpp"

namespace disktune::tuner {

void DeviceHealth::note_child(probe::ChildEnd end, std::string_view what, const std::string& detail) {
  if (end == probe::ChildEnd::wedged && wedged_detail_.empty()) wedged_detail_ = std::string(what) + ": " + detail;
}

void DeviceHealth::note_restore(probe::ChildEnd end, const std::string& detail) {
  if (end == probe::ChildEnd::wedged) restore_blocks_ = true;
  note_child(end, "restore", detail);
}

}  // namespace disktune::tuner
