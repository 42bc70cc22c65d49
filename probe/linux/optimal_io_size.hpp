// SPDX-License-Identifier: GPL-2.0-or-later
// queue/optimal_io_size of a held block device: what the kernel's read-ahead default derives from.
#pragma once

#include "probe/held_name.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace disktune::probe {

/// <block_dir>/queue/optimal_io_size [bytes] ("/sys/dev/block/7:0": 0 for a loop device,
/// which states none); nullopt when it cannot be read (no such file, not a number).
/// Source: Documentation/ABI/stable/sysfs-block (queue/optimal_io_size).
std::optional<std::int64_t> optimal_io_size_bytes(const std::string& block_dir);

/// The same for the device `held` holds; nullopt for one that holds none (the simulated drive).
std::optional<std::int64_t> optimal_io_size_bytes(const HeldName& held);

}  // namespace disktune::probe
