// SPDX-License-Identifier: GPL-2.0-or-later
// Device usage: is a disk (or one of its partitions) mounted, swapped on, or held by md/dm/LVM?
#pragma once

#include <string>
#include <vector>

namespace disktune::probe {

/// Why a whole disk is in use, one line per use ("/dev/vda1 is mounted on /",
/// "sda2 is held by dm-0 (device-mapper/LVM/md)", "/dev/sdb1 is in use as swap"); empty when
/// the disk is free. Reads /proc/self/mountinfo (field 3, MAJ:MIN), /proc/swaps and
/// /sys/block/NAME[/PART]/holders. `sys_root` and `proc_root` are for tests.
/// Source: Documentation/filesystems/proc.rst (mountinfo), sysfs-block (holders).
std::vector<std::string> device_uses(const std::string& kernel_name, const std::string& sys_root = "/sys",
                                     const std::string& proc_root = "/proc");

}  // namespace disktune::probe
