// SPDX-License-Identifier: GPL-2.0-or-later
// Device names for snippets and reports: the kernel name and the stable /dev/disk/by-id link.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace disktune::probe {

/// The kernel's name of a block device ("sda", "loop3", "hdb"): the last component of the
/// /sys/dev/block/MAJ:MIN link. `dev` may be any path to the node (also a by-id link).
/// Falls back to the last component of `dev` when it is not a block device or sysfs lacks it.
std::string kernel_name(const std::string& dev);

/// The /dev/disk/by-id/<name> symlink that resolves to the same block device as `dev`,
/// preferring "ata-" (model_serial), then "wwn-", then any other, alphabetically within each.
/// nullopt when `dev` is not a block device or no link matches (no udev, loop devices).
/// `by_id_dir` is for tests. Source: docs/ata-reference.md §6.5 (why by-id names in persisted config).
std::optional<std::string> stable_device_path(const std::string& dev,
                                              const std::string& by_id_dir = "/dev/disk/by-id");

/// The file behind a loop device (sysfs /sys/dev/block/MAJ:MIN/loop/backing_file, as
/// `losetup` lists it): a loop device's stable identity, since it has no serial or WWN.
/// nullopt when `dev` is no loop device or has no backing file (detached).
/// Source: drivers/block/loop.c loop_attr_backing_file_show.
std::optional<std::string> loop_backing_file(const std::string& dev);

/// The loop devices ("loop3") whose backing file is the file with device number `device` and
/// inode `inode` (a stat of each /sys/block/loop*/loop/backing_file): a disk image in use,
/// which no output or journal may replace. Empty when none; `sys_block` is for tests.
/// Source: drivers/block/loop.c loop_attr_backing_file_show.
std::vector<std::string> loops_backed_by(dev_t device, ino_t inode, const std::string& sys_block = "/sys/block");

/// The backing file a loop device holds open, as "DEV:INODE[:BIRTH]" (LOOP_GET_STATUS64's
/// lo_device and lo_inode, decimal; the birth time from statx(2) "SEC.NSEC" when the file
/// system keeps one and the path still names that inode): a file replaced at the same path (a
/// new inode, or a freed inode number given again) is another file, though backing_file still
/// names the path. nullopt when `dev` is no attached loop device
/// or cannot be opened. Opens `dev` read-only, reads nothing. Source: linux/loop.h, loop(4).
std::optional<std::string> loop_backing_inode(const std::string& dev);

/// The device number of the file system holding the file a loop device holds open
/// (LOOP_GET_STATUS64's lo_device): what the loop reads, whatever its backing_file path names
/// now (another file put at that path, a mount over its directory, the mount gone). nullopt
/// when `dev` is no attached loop device or cannot be opened. Opens `dev` read-only, reads
/// nothing, and never touches the backing file (a stat through a stopped FUSE server would
/// wait for it). Source: linux/loop.h, loop(4), drivers/block/loop.c loop_get_status.
std::optional<dev_t> loop_backing_device(const std::string& dev);

/// The block device a loop device reads when its backing "file" is a block device (a loop over
/// a loop, or over a disk: LOOP_GET_STATUS64's lo_rdevice); nullopt for a regular backing file,
/// no attached loop device, or one that cannot be opened. Like loop_backing_device it reads
/// nothing and never touches the backing path (its lo_device is then the file system holding
/// the device node, /dev, not the device). Source: drivers/block/loop.c loop_get_status.
std::optional<dev_t> loop_backing_block_device(const std::string& dev);

/// Whether the loop device `dev` reads its backing file with direct I/O (/sys/block/NAME/loop/dio
/// "1"; losetup --direct-io=on), or through the page cache ("0"). nullopt for a device that is
/// no attached loop device. Source: drivers/block/loop.c, loop_attr_dio_show.
std::optional<bool> loop_direct_io(const std::string& dev);

/// The device's world wide identifier as the kernel reads it from the device (sysfs
/// .../wwid of an NVMe namespace, device/wwid of a SCSI/ATA disk: "naa.5000c500a1b2c3d4",
/// "t10.ATA ..."; SCSI VPD page 0x83 / NVMe Identify Namespace). nullopt when absent.
/// Source: Documentation/ABI/testing/sysfs-bus-nvme, drivers/scsi/scsi_sysfs.c sdev_show_wwid.
std::optional<std::string> block_wwid(const std::string& dev);

}  // namespace disktune::probe
