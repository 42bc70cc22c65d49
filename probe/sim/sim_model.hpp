// SPDX-License-Identifier: GPL-2.0-or-later
// The SIMULATED drive's rate model: pure functions from settings to read times, and seeded noise.
#pragma once

#include "probe/core/clock.hpp"
#include "probe/block_io.hpp"
#include "probe/identify/identify.hpp"
#include "probe/sim/sim_state.hpp"

#include <cstdint>

namespace disktune::probe {

/// Physical constants of the simulated machine: a legacy-IDE PC of the PII 350 MHz class
/// (the seed walkthrough's host). They describe the hardware, never a configuration: the
/// best configuration follows from them and has to be found by search (see
/// sim_device_test.cpp "brute force").
struct SimMachine {
  double irq_overhead_s = 72e-6;        ///< CPU time per disk interrupt, other IRQs masked
  double unmask_factor = 0.9;           ///< unmaskirq=1 shortens the masked part of that time
  double pio16_cost_s_per_byte = 30e-9; ///< CPU/bus cost of 16-bit PIO (one insw per word)
  double pio32_cost_s_per_byte = 15e-9; ///< 32-bit PIO (one insl per two words)
  double vlb_sync_s = 1e-6;             ///< io_support=3: the sync sequence per DRQ block
  double command_overhead_s = 100e-6;   ///< issuing one request (taskfile, block layer)
  int max_request_sectors = 128;        ///< legacy IDE max_sectors: requests merge up to this
  double overlap_loss = 0.3;            ///< share of the non-bottleneck stage not overlapped
  double unplug_delay_s = 3e-3;         ///< idle gap per read() call that readahead can hide
  double syscall_s = 5e-6;              ///< fixed cost of every read() call
  double positioning_s = 12.7e-3;       ///< seek 8.5 ms + half a 7200 rpm turn, on a jump
  double cached_mib_s = 102.0;          ///< page-cache copy bandwidth (hdparm -T)
};

/// Nominal interface rate of a -X code in MB/s (10^6 bytes/s): PIO0 3.3, PIO1 5.2, PIO2 8.3,
/// PIO3 11.1, PIO4 16.7, SDMA0-2 2.1/4.2/8.3, MDMA0 4.2, MDMA1 13.3, MDMA2 16.7, UDMA0 16.7,
/// UDMA1 25, UDMA2 33.3, UDMA3 44.4, UDMA4 66.7, UDMA5 100, UDMA6 133 (docs/ata-reference.md §3.4;
/// PIO5/6 and MDMA3/4 CF modes 20/25 MB/s). DT_ASSERT: `code` is a valid -X code.
double interface_rate_mb_s(std::int64_t code);

/// Default sustained media rate [MiB/s] by drive generation, since identify data does not
/// state it: fastest UDMA mode 6 or SATA 60, 5: 40, 3-4: 18.5 (the seed, IBM-DJNA-352500,
/// ATA-66 era: Deskstar 22GXP sustained 13.8-22.9 MB/s), 0-2: 12, MDMA only: 8, PIO only: 4.
double default_media_mib_s(const IdentifyInfo& identify);

/// The -X code the host actually transfers with: the drive's DMA mode when using_dma=1,
/// otherwise its PIO mode, or `fastest_pio` (a -X code) when the drive sits in a DMA mode.
std::int64_t transfer_code(const SimState& state, std::int64_t fastest_pio);

/// Time [s] per 512-byte sector once a transfer streams: max(m, h) + overlap_loss * min(m, h),
/// m = 512 / media rate, h = the host's time per sector (bus, plus the PIO costs below).
/// What uncached_read_time charges per sector; the random-read model reuses it.
double sector_time_s(const SimState& state, std::int64_t fastest_pio, double media_mib_s,
                     const SimMachine& machine = {});

/// Time [s] of issuing one request (at most max_request_sectors): command_overhead, plus one
/// interrupt (irq(unmask)) when the transfer is DMA.
double request_time_s(const SimState& state, std::int64_t fastest_pio,
                      const SimMachine& machine = {});

/// Time [s] for one read() of `bytes` (a multiple of 512) that misses the page cache:
///   per sector   t_s = max(m, h) + overlap_loss * min(m, h)       (two-stage pipeline)
///     m = 512 / media rate;  h = 512 / interface rate            (DMA), or
///     h = 512 / interface rate + 512 * pio_cost(io_support)
///         + (irq(unmask) + vlb_sync(io_support)) / max(1, multcount)   (PIO)
///   per request (max_request_sectors): command_overhead (+ irq(unmask) with DMA)
///   per call: syscall + unplug_delay - min(unplug_delay, readahead * t_s) (buffered; direct
///   reads get no readahead) + positioning when `sequential` is false.
Seconds uncached_read_time(const SimState& state, std::int64_t fastest_pio,
                                  double media_mib_s, std::uint64_t bytes, IoMode mode,
                                  bool sequential, const SimMachine& machine = {});

/// Time [s] to copy `bytes` out of the page cache (hdparm -T), independent of drive settings.
Seconds cached_read_time(std::uint64_t bytes, const SimMachine& machine = {});

/// Multiplicative time noise, 1 + noise_pct/100 * z with z ~ N(0,1) (approximated by four
/// uniforms, |z| < 3.5). Depends only on the seed, the full settings, the sample number
/// (`epoch`: flush_cache() calls on this BlockIo) and the read number within the BlockIo:
/// 90 % of the variance is per sample, 10 % per read. Never on the order of trials.
double noise_factor(std::uint64_t seed, const SimState& state, std::uint64_t epoch,
                    std::uint64_t read_index, double noise_pct);

}  // namespace disktune::probe
