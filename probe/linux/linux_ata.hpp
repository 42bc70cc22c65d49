// SPDX-License-Identifier: GPL-2.0-or-later
// The real AtaTransport: HDIO ioctls, SG_IO and libata's sysfs xfer_mode on one device node.
#pragma once

#include "probe/linux/ata_transport.hpp"

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace disktune::probe {

/// Swap the two bytes of every word of the identify string fields (serial words 10-19,
/// firmware 23-26, model 27-46). HDIO_GET_IDENTITY hands them over in natural order (libata's
/// ata_get_identity re-formats them with ata_id_string; legacy IDE fixed them at probe);
/// decode_identify expects ATA order, first character in the high byte.
/// Source: docs/ata-reference.md §1.1.
void hdio_identity_to_ata_order(std::span<std::byte, 512> block);

/// ioctl(HDIO_GET_IDENTITY, 0x030d): the 512-byte identify block the kernel cached at probe or
/// revalidate time, converted to ATA order. Sends no command to the drive.
/// Errors: (errno, "ioctl(HDIO_GET_IDENTITY)", path); ENOTTY or EINVAL from drivers without
/// it (loop, virtio, NVMe).
Result<std::array<std::byte, 512>> read_hdio_identity(int fd, const std::string& path);

/// The AtaTransport of an open whole-disk node `fd` (not owned). `sysfs_dir` is the
/// device's /sys/dev/block/MAJ:MIN directory, used to find libata's
/// /sys/class/ata_device/<name>/xfer_mode. Source: docs/ata-reference.md §3.1-§3.3.
std::unique_ptr<AtaTransport> make_linux_ata_transport(int fd, std::string path, std::string sysfs_dir);

}  // namespace disktune::probe
