// SPDX-License-Identifier: GPL-2.0-or-later
// The knobs refused on a disk whose data is in use (mounted), each with the hdparm manual's reason.
#pragma once

#include "probe/settings.hpp"

#include <optional>
#include <string_view>

namespace disktune::probe {

/// Why `id` must not be changed on a disk whose data is in use (mounted, swapped on or held
/// by md/dm/LVM; --allow-mounted): the hdparm(8) warning, or the failure the value causes,
/// for that knob. nullopt for a data-safe knob: the block-layer ones (readahead, the queue
/// attributes) change how reads are formed and queued, never which bytes reach the disk;
/// apm and aam (-B, -M: hdparm(8) warns of nothing about data; the spin-down APM levels are
/// never searched) choose the drive's power and seek profile.
/// Every Risk::risky setting has one, no Risk::safe setting has one.
/// Source: hdparm(8) -m, -c, -u, -d, -X; docs/ata-reference.md §4.2; tests/lab/pio_facts.sh (-m0).
std::optional<std::string_view> in_use_hazard(SettingId id);

/// The prefix of every reason a knob is refused for on a disk in use (SearchSpace's
/// pruned and excluded entries, the --only error).
inline constexpr std::string_view kInUsePrefix = "refused on a disk in use: ";

}  // namespace disktune::probe
