// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxBlockIo: read-only data access to a real block device (pread, BLKFLSBUF, BLKGETSIZE64).
#pragma once

#include "probe/block_io.hpp"

#include <memory>
#include <string>

namespace disktune::probe {

/// Open `path` for measurements: its own descriptor, O_RDONLY|O_CLOEXEC, plus O_DIRECT for
/// IoMode::direct. Never writes. Reads are timed by a SteadyClock. A device's measurements
/// pass its HeldName::path ("/proc/self/fd/N") with the user's name as `shown`, which errors
/// carry instead (empty `shown`: `path`).
/// Errors: (errno, "open", shown) or (errno, "open O_DIRECT", shown); (errno,
/// "ioctl(BLKGETSIZE64)", shown) when the size cannot be read (e.g. not a block device).
/// Source: hdparm's time_device/flush_buffer_cache (docs/ata-reference.md §5.1).
Result<std::unique_ptr<BlockIo>> open_linux_block_io(const std::string& path, IoMode mode,
                                                     const std::string& shown = "");

}  // namespace disktune::probe
