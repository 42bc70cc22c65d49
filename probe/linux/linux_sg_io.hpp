// SPDX-License-Identifier: GPL-2.0-or-later
// SG_IO ATA PASS-THROUGH on a real device node: one ioctl, the verdict from ata_passthrough.
#pragma once

#include "probe/linux/ata_passthrough.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>

namespace disktune::probe {

/// ioctl(fd, SG_IO) with an ATA PASS-THROUGH(16) or (12) CDB (`cdb_bytes`) for `command`:
/// SG_DXFER_FROM_DEV into `data` (command.data_bytes bytes) or SG_DXFER_NONE, 32-byte sense
/// buffer, 15 s timeout, as hdparm's sgio.c does. The descriptor needs no write access: root
/// (CAP_SYS_RAWIO) may send any CDB on an O_RDONLY node.
/// Errors: (errno, "ioctl(SG_IO ATA_16 <name>)", path) when the ioctl fails (ENOTTY on loop,
/// virtio, NVMe); otherwise interpret_sg_io's verdict with op "SG_IO ATA_16 <name>". Source: docs/ata-reference.md §3.2, hdparm sgio.c sg16().
Result<std::optional<AtaStatusReturn>> sg_io_ata(int fd, const std::string& path, const AtaCommand& command,
                                                 int cdb_bytes, std::span<std::byte> data);

}  // namespace disktune::probe
