// SPDX-License-Identifier: GPL-2.0-or-later
// Helpers shared by ata_knobs.cpp and ata_discovery.cpp (not a public interface).
#pragma once

#include "probe/core/error.hpp"
#include "probe/identify/identify.hpp"

#include <cstdint>
#include <optional>

namespace disktune::probe {

/// True when an SG_IO failure means "no SG_IO here" (the ioctl answered ENOTTY, EINVAL or
/// ENODEV, or the command never reached a drive: EBADE), as hdparm's do_drive_cmd decides
/// to fall back to HDIO_DRIVE_CMD. A sense refusal or an ATA error is an answer, not this.
bool sg_io_unavailable(const Error& error);
/// True for sense ILLEGAL REQUEST 20/00: the SAT layer does not know ATA PASS-THROUGH(16).
bool opcode_unknown(const Error& error);
/// The active DMA mode in identify data as an hdparm -X code (UDMA, then MDMA, then SDMA).
std::optional<std::int64_t> active_dma_code(const IdentifyInfo& identify);

}  // namespace disktune::probe
