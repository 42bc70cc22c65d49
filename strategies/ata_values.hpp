// SPDX-License-Identifier: GPL-2.0-or-later
// The legal values of the ATA settings hdparm sets (-m, -c, -d, -X), bounded by the drive's
// IDENTIFY DEVICE data (docs/ata-reference.md, docs/architecture.md): each value left out is counted
// in the PruneLog under the identify word that rules it out.
#pragma once

#include "probe/identify/identify.hpp"
#include "probe/settings.hpp"
#include "strategies/prune_log.hpp"
#include "strategies/search_space.hpp"

#include <vector>

namespace disktune::strategies {

/// hdparm -m values: 0 and the powers of two up to MaxMultSect (word 47 bits 7:0), at most
/// hdparm's 64; the other counts of 0..64 are pruned (drives abort them, libata honours only
/// powers of two).
std::vector<probe::SettingValue> multcount_values(const probe::IdentifyInfo& id, PruneLog& log);

/// hdparm -c values 0 (16-bit), 1 (32-bit) and 3 (32-bit with sync); 2 is pruned (undefined).
std::vector<probe::SettingValue> io_support_values(PruneLog& log);

/// hdparm -X codes (PIO 8+n, MDMA 32+n, UDMA 64+n) the drive supports: PIO modes from words 51
/// and 64, MDMA from word 63, UDMA from word 88 (word 53 bit 2) and above UDMA2 only with an
/// 80-wire cable (word 93); single-word DMA is never searched. Each refusal is logged.
std::vector<probe::SettingValue> xfermode_values(const probe::IdentifyInfo& id, PruneLog& log);

/// hdparm -d values: 0 and 1 when word 49 bit 8 (DMA supported) is set, else 0 alone.
std::vector<probe::SettingValue> using_dma_values(const probe::IdentifyInfo& id, PruneLog& log);

/// The joint (using_dma, xfermode) group: DMA modes only with using_dma=1, PIO modes only with
/// using_dma=0 (the other pairs are logged as pruned). `dma` and `xfer` as returned above.
Group transfer_group(const std::vector<probe::SettingValue>& dma, const std::vector<probe::SettingValue>& xfer,
                     PruneLog& log);

}  // namespace disktune::strategies
