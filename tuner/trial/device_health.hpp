// SPDX-License-Identifier: GPL-2.0-or-later
// DeviceHealth: what the run's children found the device to be (wedged, restore blocks, unreadable).
#pragma once

#include "probe/watch/watchdog.hpp"

#include <string>
#include <string_view>

namespace disktune::tuner {

/// The device's health over a run, from the ends of the children that touched it. Only gets
/// worse: once wedged, restore-blocked or unreadable, it stays so (nothing of the run
/// touches a wedged device again; a restore that wedged once would block again).
class DeviceHealth {
 public:
  /// A child that touched the device ended: a wedged one (probe::ChildEnd::wedged: killed,
  /// still in state D) makes the device wedged; the first names it, "<what>: <detail>"
  /// (what: "baseline", "trial read_ahead_kb=256", "restore", "confirmation round", ...).
  void note_child(probe::ChildEnd end, std::string_view what, const std::string& detail);
  /// A restore child ended: as note_child (what "restore"), and a wedged one also marks that
  /// restoring blocks on this device.
  void note_restore(probe::ChildEnd end, const std::string& detail);
  /// The device no longer reads after a restore (the read check failed, not wedged).
  void note_unreadable() { unreadable_ = true; }

  [[nodiscard]] bool wedged() const { return !wedged_detail_.empty(); }
  /// Why the device is wedged ("" while it is not).
  [[nodiscard]] const std::string& wedged_detail() const { return wedged_detail_; }
  /// True once a restore child wedged: any further restore would block the same way.
  [[nodiscard]] bool restore_blocks() const { return restore_blocks_; }
  /// True once the read check after a restore failed: the run must stop (exit 3).
  [[nodiscard]] bool unreadable() const { return unreadable_; }

 private:
  std::string wedged_detail_;
  bool restore_blocks_ = false;
  bool unreadable_ = false;
};

}  // namespace disktune::tuner
