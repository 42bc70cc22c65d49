// SPDX-License-Identifier: GPL-2.0-or-later
// ATA APM (-B) and AAM (-M): support and current level from IDENTIFY data, and the levels searched.
#pragma once

#include "probe/identify/identify.hpp"
#include "probe/settings.hpp"

#include <optional>
#include <string>
#include <vector>

namespace disktune::probe {

/// True for SettingId::apm and SettingId::aam.
bool is_power_level(SettingId id);

/// Why the drive cannot take `id` (apm or aam): "IDENTIFY word 83 bit 3 clear: the drive
/// has no Advanced Power Management feature set" (bit 9, Automatic Acoustic Management);
/// nullopt when identify says it is supported. Aborts for another setting.
std::optional<std::string> power_level_missing(const IdentifyInfo& identify, SettingId id);

/// The current value of `id` as identify shows it: APM the word 91 level while word 86 bit 3
/// is set, else kApmDisabled (255); AAM the word 94 low byte while word 86 bit 9 is set, else
/// kAamDisabled (0). nullopt when the drive lacks the feature (power_level_missing).
std::optional<std::int64_t> power_level_of(const IdentifyInfo& identify, SettingId id);

/// The levels searched (the baseline is added by the space builder): APM 128, 192, 254 and
/// 255 (off); AAM 128 (quiet) and 254 (fast). Aborts for another setting.
std::vector<SettingValue> power_level_ladder(SettingId id);

/// The pruning reason of the APM levels that permit spin-down (1-127): the drive would stop
/// its spindle or park its heads between a trial's reads, so the figure measures spin-up.
inline constexpr std::string_view kApmSpinDownReason =
    "apm 1-127 permit spin-down: the drive would park its heads mid-measurement";
/// How many APM levels that reason prunes (1-127).
inline constexpr std::size_t kApmSpinDownLevels = 127;

}  // namespace disktune::probe
