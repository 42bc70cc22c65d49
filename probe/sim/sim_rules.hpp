// SPDX-License-Identifier: GPL-2.0-or-later
// Legality and side effects of the SIMULATED legacy IDE driver's setting ioctls.
#pragma once

#include "probe/core/error.hpp"
#include "probe/identify/identify.hpp"
#include "probe/settings.hpp"
#include "probe/sim/sim_state.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace disktune::probe {

/// What the drive (identify data) and the cable let the simulated driver select.
/// The simulated host controller itself is taken to support every mode up to UDMA6.
struct SimLimits {
  int max_multsect = 0;            ///< word 47 bits 7:0
  bool dma_supported = false;      ///< word 49 bit 8
  int max_pio = 0;                 ///< highest PIO mode (PIO0 is always there)
  std::vector<int> sdma_modes;     ///< word 62
  std::optional<int> max_mdma;     ///< highest of word 63
  std::optional<int> max_udma;     ///< highest of word 88
  bool cable_80wire = false;       ///< UDMA3+ allowed (docs/ata-reference.md §4.1)
};

/// Limits from identify data; `cable_override` (the profile's cable_80wire) wins over
/// word 93. An unreported cable counts as 80-wire for SATA drives and for captures with a
/// UDMA mode above 2 active (the drive evidently ran that way), else as 40-wire, as the
/// legacy driver assumed.
SimLimits sim_limits(const IdentifyInfo& identify, std::optional<bool> cable_override);

/// True when the drive and cable allow the -X code (docs/ata-reference.md §4.1: a mode is legal if
/// the drive lists it or a higher mode of its family; DMA needs word 49 bit 8; UDMA3+ needs
/// an 80-wire cable).
bool xfermode_allowed(const SimLimits& limits, std::int64_t code);

/// -X code of the fastest PIO mode: what the host uses when using_dma=0 while the drive is in
/// a DMA mode.
std::int64_t fastest_pio_code(const SimLimits& limits);

/// The best allowed DMA mode (UDMA, else MDMA, else SDMA): what enabling DMA selects when the
/// drive is in a PIO mode, as the legacy driver's ide_dma_on tuning does. nullopt if none.
std::optional<std::int64_t> best_dma_code(const SimLimits& limits);

/// Initial state, the conservative defaults of a legacy IDE kernel at boot (the seed's listed
/// settings): multcount 0, io_support 0, unmaskirq 0, using_dma 0, readahead 8 sectors, and
/// the drive's active mode from identify (UDMA, else MDMA active, else the fastest PIO); an
/// active mode the limits forbid is replaced by best_dma_code (else the fastest PIO).
SimState sim_default_state(const IdentifyInfo& identify, const SimLimits& limits);

/// The state after the legacy driver's ioctl for `id` = `value`.
/// Errors (errno, "ioctl(...)" with the reason, `path`), as drivers/ide answers them:
///  multcount > MaxMultSect, io_support not in {0,1,3}, unmaskirq / using_dma not 0/1,
///  readahead outside 0..2048 (hdparm's range), an -X mode the drive or cable does not
///  allow, a name instead of a number: EINVAL; using_dma=1 without DMA support: EPERM.
///  The simulated drive accepts every multcount up to MaxMultSect (real drives may abort
///  counts that are not powers of two; not modelled).
/// Side effects: a PIO -X switches using_dma off (docs/ata-reference.md §4.1); using_dma=1 with a PIO
/// mode selects best_dma_code.
Result<SimState> sim_apply(const SimState& state, SettingId id, const SettingValue& value,
                           const SimLimits& limits, const std::string& path);

}  // namespace disktune::probe
