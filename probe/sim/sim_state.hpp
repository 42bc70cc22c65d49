// SPDX-License-Identifier: GPL-2.0-or-later
// SimState: the settings of the SIMULATED legacy-IDE drive, and their Settings form.
#pragma once

#include "probe/settings.hpp"

#include <array>
#include <cstdint>
#include <optional>

namespace disktune::probe {

/// The six knobs the simulated legacy IDE driver (drivers/ide, kernels before 5.14) offers,
/// with their current values. Values are always legal for the drive (sim_rules.hpp keeps it so).
struct SimState {
  int multcount = 0;             ///< sectors per interrupt in PIO (0 = one sector per interrupt)
  int io_support = 0;            ///< 0 = 16-bit PIO, 1 = 32-bit, 3 = 32-bit with VLB sync
  bool unmaskirq = false;        ///< other interrupts unmasked while the disk IRQ is serviced
  bool using_dma = false;        ///< host DMA engine on
  std::int64_t xfermode = 12;    ///< the drive's transfer mode, hdparm -X code (12 = pio4)
  int readahead_sectors = 8;     ///< block-layer readahead, 512-byte sectors (BLKRASET)

  bool operator==(const SimState&) const = default;
};

/// The settings SimState models, in apply order.
inline constexpr std::array<SettingId, 6> kSimSettings{
    SettingId::multcount, SettingId::io_support, SettingId::unmaskirq,
    SettingId::using_dma, SettingId::xfermode,   SettingId::readahead};

/// True for the settings in kSimSettings.
bool is_sim_setting(SettingId id);

/// The value of one modelled setting; nullopt for the block-queue settings the legacy
/// driver does not have.
std::optional<SettingValue> sim_value(const SimState& state, SettingId id);

/// All six values as Settings (what snapshot() returns and faults are matched against).
Settings sim_settings(const SimState& state);

/// `state` with one modelled setting replaced, no legality check (sim_rules.hpp checks).
/// DT_ASSERT: `id` is modelled and `value` is a number.
SimState with_value(SimState state, SettingId id, std::int64_t value);

/// A 64-bit digest of every field (input of the seeded noise, sim_model.hpp).
std::uint64_t sim_state_hash(const SimState& state);

/// splitmix64's finaliser: a well-mixed 64-bit hash of `x` (Steele, Lea, Flood 2014).
/// Inline: it runs for every 8 bytes a simulated read returns.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace disktune::probe
