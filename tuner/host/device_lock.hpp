// SPDX-License-Identifier: GPL-2.0-or-later
// DeviceLock: one disktune command per block device at a time, whatever path names it.
#pragma once

#include "tuner/host/host.hpp"

#include <sys/types.h>

#include <string>

namespace disktune::tuner {

/// How long a command waits for the lock when its recorded holder has exited and only a
/// dying trial child of it still holds it (milliseconds).
inline constexpr int kOrphanWaitMs = 10'000;

/// Holds flock(LOCK_EX) for the command's lifetime on the lock file LOCK_DIR/MAJ:MIN.lock
/// (LOCK_DIR: host().lock_dir, /run/disktune) of the block device
/// `device` resolves to (stat, symlinks followed: its st_rdev), so a second command that
/// names the same device by another node (mknod), a symlink or another journal is refused
/// instead of changing settings next to the first. Every command that writes to a device
/// takes it (tune, restore, identify and plan: their capability probe writes nr_requests;
/// bench: its cache flushes disturb a tune's measurement). The holder writes its pid and
/// command line into the file for the refusal message. Forked children share the lock: a
/// trial child that outlives its parent keeps the device locked; a command that finds the
/// recorded holder exited waits up to kOrphanWaitMs for that child to die (it dies with its
/// parent) before it refuses. Simulated devices
/// ("sim:...") and paths that are not block devices take no lock (the device layer refuses
/// them with its reason). When the lock directory cannot be created (not root), the device node
/// itself is locked, as before. Throws RunError: exit 2 when another process holds the
/// lock, naming the device, the holder's pid and command line.
class DeviceLock {
 public:
  explicit DeviceLock(const std::string& device, const std::string& lock_dir = host().lock_dir);
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;
  ~DeviceLock();

  /// The device number (st_rdev) locked; 0 when no lock was taken (a simulated drive, a path
  /// that is no block device).
  [[nodiscard]] dev_t device_number() const { return locked_; }

 private:
  int fd_ = -1;
  dev_t locked_ = 0;
};

/// The disktune command holding `device`'s lock now, as "pid 1234 (disktune tune /dev/loop0
/// ...)" from the holder record of its lock file (LOCK_DIR/MAJ:MIN.lock, as DeviceLock); ""
/// when none holds it or that cannot be told (no lock file, not a block device, not root: a
/// lock on the device node is not looked for). Read-only: the lock file is not created and no
/// lock is taken, so a command starting meanwhile is never refused because of this look;
/// whether it is held comes from /proc/locks (an flock WRITE lock on the file's device and inode).
std::string device_lock_holder(const std::string& device, const std::string& lock_dir = host().lock_dir);

}  // namespace disktune::tuner
