// SPDX-License-Identifier: GPL-2.0-or-later
// Drives that share hardware: which drives of a multi-drive tune must be measured one after another.
#pragma once

#include <string>
#include <vector>

namespace disktune::tuner {

/// Drives measured one after another (in the order named), and why: one sentence per pair
/// found sharing hardware ("loop0 and loop1: backing files on one file system (st_dev 8:1)").
/// A group of one drive has no reasons.
struct DriveGroup {
  std::vector<std::string> drives;   ///< kernel names ("sda", "loop3"), in the order given
  std::vector<std::string> reasons;  ///< why they are serialised; empty for a lone drive
};

/// Partition `kernel_names` (distinct or not, as given) into groups of drives that share
/// hardware, the transitive closure of these rules (docs/multi-drive.md "Grouping"):
/// - one ATA channel: both sysfs device paths pass through the same ataN port directory
///   (master and slave of one PATA channel; a SATA port has one drive);
/// - one disk: a partition and its parent disk, a dm/md device and every disk under its
///   slaves/ (recursively), a loop device and the disk holding its backing file's file system,
///   and two names of the same device;
/// - one file system: loop devices whose backing files have the same st_dev (stat(2)).
/// Reads `sys_root`/class/block/NAME (else `sys_root`/block/NAME), its canonical path,
/// partition, slaves/, loop/backing_file, and `sys_root`/dev/block/MAJ:MIN; what is missing
/// adds no rule (never an error). Groups come in the order of their first drive.
/// Source: Documentation/ABI/stable/sysfs-block (slaves, holders, partition),
/// drivers/ata/libata-transport.c (ataN port devices), drivers/block/loop.c (backing_file).
std::vector<DriveGroup> group_drives(const std::vector<std::string>& kernel_names,
                                     const std::string& sys_root = "/sys");

/// The whole disks under the block device `kernel_name` (itself; a partition's parent; every
/// disk under a dm/md device's slaves/, recursively), by kernel name; {kernel_name} when
/// sysfs has no such device. For --all: the disks backing / are never tuned.
std::vector<std::string> underlying_disks(const std::string& kernel_name, const std::string& sys_root = "/sys");

}  // namespace disktune::tuner
