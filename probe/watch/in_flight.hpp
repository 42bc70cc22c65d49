// SPDX-License-Identifier: GPL-2.0-or-later
// Requests a block device has in flight: what a killed reader can leave behind.
#pragma once

#include "probe/core/clock.hpp"

#include <optional>
#include <string>

namespace disktune::probe {

/// Read requests in flight on /sys/block/`kernel_name` (first field of its `inflight`
/// file: "reads writes"); nullopt when the file is missing or unreadable. `sys_block` is for tests.
/// Source: Documentation/ABI/testing/sysfs-block (inflight), block/genhd.c part_inflight_show.
std::optional<long> reads_in_flight(const std::string& kernel_name, const std::string& sys_block = "/sys/block");

/// Reads still in flight once `grace` has passed, polling every 50 ms and returning 0 as
/// soon as none are left (also when the count cannot be read). A reader SIGKILLed in a
/// killable wait dies at once, but its request stays queued until the device answers: a
/// count that does not drain means the device no longer completes reads, and the last
/// close of the device would wait on them for ever (bdev_release flushes the page cache).
long reads_stuck_in_flight(const std::string& kernel_name, Seconds grace,
                           const std::string& sys_block = "/sys/block");

}  // namespace disktune::probe
