// SPDX-License-Identifier: GPL-2.0-or-later
// A hand-built IdentifyInfo shaped like the seed drive (IBM-DJNA-352500), for tests that must
// not depend on the parsers.
#pragma once

#include "probe/device.hpp"
#include "probe/identify/identify.hpp"

#include <vector>

namespace disktune::testing {

/// MaxMultSect 16, PIO 0-4, MDMA 0-2, UDMA 0-4 with udma2 active, DMA/LBA/IORDY supported,
/// cable not reported (as hdparm -i text shows it).
probe::IdentifyInfo seed_like_identify();

/// Capabilities of the legacy IDE driver: the six hdparm knobs supported, queue knobs not.
std::vector<probe::Capability> legacy_capabilities();

/// The seed's listed settings: multcount 0, io_support 0, unmaskirq 0, using_dma 0,
/// xfermode udma2 (active per identify), readahead 8.
probe::Settings seed_baseline();

}  // namespace disktune::testing
