// SPDX-License-Identifier: GPL-2.0-or-later
// Test helpers for the simulated drive: hand-built identify data and an hdparm-style meter.
#pragma once

#include "probe/device.hpp"
#include "probe/identify/identify.hpp"
#include "probe/sim/sim_device.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace disktune::testing {

/// The seed drive as its hdparm -i text shows it (data/identify/seed_ibm-djna-352500...):
/// MaxMultSect 16, DMA, PIO 0-4, MDMA 0-2, UDMA 0-4 with UDMA2 active, cable not reported,
/// 49981680 LBA sectors. Built by hand so these tests do not depend on the identify parser.
probe::IdentifyInfo seed_identify();

/// A UDMA5 (ATA-100) drive with PIO 0-4, MDMA 0-2 and UDMA2 active, 80-wire cable reported.
probe::IdentifyInfo udma5_identify();

/// make_sim_device_from(identify, "sim:", profile, seed); REQUIREs success.
std::unique_ptr<probe::Device> make_sim(const probe::IdentifyInfo& identify,
                                        const probe::SimProfile& profile = {},
                                        std::uint64_t seed = 1);

/// Apply each setting in apply order; REQUIREs success.
void apply_all(probe::Device& device, const probe::Settings& settings);

/// hdparm -t: flush_cache(), then sequential 2 MiB reads from 0 until `seconds` of the
/// BlockIo's clock have passed; MiB/s. REQUIREs every read to succeed.
double buffered_mib_s(probe::BlockIo& io, double seconds = 3.0);

/// hdparm -T: one 2 MiB read at 0 to prime the cache, then re-read it for `seconds`; MiB/s.
double cached_mib_s(probe::BlockIo& io, double seconds = 2.0);

/// One 2 MiB read at `offset`; REQUIREs success.
std::vector<std::byte> read_chunk(probe::BlockIo& io, std::uint64_t offset);

/// Settings from "name=value" pairs parsed with probe::parse_value.
probe::Settings settings_of(std::initializer_list<std::pair<const char*, const char*>> pairs);

}  // namespace disktune::testing
