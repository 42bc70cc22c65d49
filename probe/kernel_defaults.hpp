// SPDX-License-Identifier: GPL-2.0-or-later
// The values the kernel states as a device's defaults, for the winner rule's tie order.
#pragma once

#include "probe/settings.hpp"

#include <cstdint>
#include <optional>

namespace disktune::probe {

/// The settings whose default the kernel states for a device, at that default: every
/// scheduler tunable (tunable_default), and, when `optimal_io_size_bytes` is known (sysfs
/// queue/optimal_io_size; 0 = the device states none), read_ahead_kb = max(128 KiB, twice the
/// optimal I/O size rounded down to whole pages of `page_size_bytes`) and readahead (hdparm
/// -a, 512-byte sectors) the same in sectors. Settings whose default depends on the driver or
/// the elevator (scheduler, nr_requests, max_sectors_kb, nomerges, rq_affinity, queue_depth)
/// and the ATA knobs are left out. nullopt (the simulated drive: no queue) leaves read-ahead
/// out too.
/// Source: block/blk-settings.c disk_update_readahead (6.1; blk_apply_bdi_limits from 6.11):
/// ra_pages = max(io_opt * 2 / PAGE_SIZE, VM_READAHEAD_PAGES), include/linux/mm.h
/// VM_READAHEAD_PAGES = SZ_128K / PAGE_SIZE.
Settings kernel_defaults(std::optional<std::int64_t> optimal_io_size_bytes, std::int64_t page_size_bytes = 4096);

}  // namespace disktune::probe
