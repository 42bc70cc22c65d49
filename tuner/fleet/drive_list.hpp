// SPDX-License-Identifier: GPL-2.0-or-later
// tune --all: the whole disks of this machine that are free to tune.
#pragma once

#include <string>
#include <vector>

namespace disktune::tuner {

/// The drives --all chooses, and the ones it leaves out with why.
struct DriveList {
  std::vector<std::string> drives;   ///< kernel names, in /sys/block order (sorted)
  std::vector<std::string> skipped;  ///< "vda: holds / (the root file system)", ...
};

/// Every whole disk under `sys_root`/block with a device link (not dm, md, loop, ram, zram,
/// nbd: virtual ones) and a medium (size > 0), except the disks under the file system mounted
/// on / (never tuned) and, unless `allow_mounted`, the disks in use (probe::device_uses:
/// mounted, swapped on, held by md/dm). Loop, ram and zram devices are tuned only when named.
/// The disks under / are found by the root mount's device number, its source (btrfs: every
/// device of it), or an overlay's layers (upperdir, lowerdir, workdir). Throws RunError(exit 2)
/// when none is found and / is not on a file system that holds no disk (tmpfs, NFS, ...): a
/// zfs root, an overlay on unknown layers; --all never guesses which disk is free.
DriveList free_disks(bool allow_mounted, const std::string& sys_root = "/sys", const std::string& proc_root = "/proc");

}  // namespace disktune::tuner
