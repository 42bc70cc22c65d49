// SPDX-License-Identifier: GPL-2.0-or-later
// Device usage: is a disk (or one of its partitions) mounted, swapped on, held or claimed?
#pragma once

#include <string>
#include <vector>

namespace disktune::probe {

/// Why a whole disk is in use, one line per use ("vda1 is mounted on /",
/// "sda2 is held by dm-0 (device-mapper/LVM/md)", "sdb1 is in use as swap", "loop3 is a
/// device of the btrfs file system UUID", "sdb1 backs loop1 (...)"); empty when the disk is
/// free. The evidence: /proc/self/mountinfo (field 3, MAJ:MIN, or the mount source after
/// " - ": btrfs shows an anonymous 0:NN), /proc/swaps, /sys/block/NAME[/PART]/holders (dm,
/// LVM, md, bcache), /sys/block/loop*/loop/backing_file naming the disk or a partition,
/// /sys/fs/btrfs/*/devices (every device of a multi-device btrfs), and on the real /sys, when
/// none of these shows a use, an exclusive open of /dev/NAME (EBUSY: the kernel holds it
/// claimed, as zfs does). Not seen: a disk opened raw without O_EXCL (a database, a VM).
/// `sys_root` and `proc_root` are for tests. `exclusive_open` false leaves the exclusive open
/// out: a run that holds the disk claimed itself watches the rest (its own claim is no use).
/// Source: Documentation/filesystems/proc.rst (mountinfo), sysfs-block (holders),
/// sysfs-fs-btrfs (devices/), open(2) (O_EXCL on a block device).
std::vector<std::string> device_uses(const std::string& kernel_name, const std::string& sys_root = "/sys",
                                     const std::string& proc_root = "/proc", bool exclusive_open = true);

/// The entries of `now` not in `before`, in `now`'s order: the uses that appeared between two
/// device_uses calls (a run says each as it appears).
std::vector<std::string> new_uses(const std::vector<std::string>& before, const std::vector<std::string>& now);

}  // namespace disktune::probe
