// SPDX-License-Identifier: GPL-2.0-or-later
// The SIMULATED drive's data: deterministic, position-dependent bytes, and their corruption.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace disktune::probe {

/// Fill `buffer` with the simulated drive's content at byte `offset`: byte p is byte p % 8 of
/// mix64(p / 8), so every position has its own value and no pattern repeats. The same for every
/// drive, seed and setting, so integrity checks can compare reads across settings.
void fill_sim_data(std::uint64_t offset, std::span<std::byte> buffer);

/// Compute now the part of the content fill_sim_data keeps in memory (the first 64 MiB,
/// otherwise computed on first read). A simulated device calls it when it is made, before
/// trial children are forked, so they share one copy instead of each computing and faulting
/// in its own. Thread-safe; later calls do nothing.
void prepare_sim_data();

/// Silent corruption of data at `offset` (the "corrupt" fault): byte 17 of every 512-byte sector
/// is XORed with 0x5A, so any chunk of a sector or more differs from fill_sim_data's.
void corrupt_sim_data(std::uint64_t offset, std::span<std::byte> buffer);

}  // namespace disktune::probe
