// SPDX-License-Identifier: GPL-2.0-or-later
// Bytes a block device has read: progress the parent sees even while a child's read() blocks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace disktune::probe {

/// Bytes read from /sys/block/`kernel_name` since boot: its `stat` file's third field
/// (sectors read, in 512-byte units whatever the logical block size) times 512. Counts every
/// reader of the device and grows as requests complete, so a slow read() that moves the
/// device on shows progress long before it returns. nullopt when the file is missing or
/// unreadable. Source: Documentation/block/stat.rst.
std::optional<std::uint64_t> device_bytes_read(const std::string& kernel_name);

}  // namespace disktune::probe
