// SPDX-License-Identifier: GPL-2.0-or-later
// DeviceLock: one disktune run per block device at a time.
#pragma once

#include <string>

namespace disktune::tuner {

/// Holds flock(LOCK_EX) on the block device node for the run, so a second disktune run on
/// the same device (even with another journal) is refused instead of recording the first
/// run's trial settings as its "original" ones. Simulated devices ("sim:...") take no lock.
/// Throws RunError: exit 2 when another process holds it; open errors are left to the
/// device layer (the lock is then not taken and the open fails there with its reason).
class DeviceLock {
 public:
  explicit DeviceLock(const std::string& device);
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;
  ~DeviceLock();

 private:
  int fd_ = -1;
};

}  // namespace disktune::tuner
