// SPDX-License-Identifier: GPL-2.0-or-later
// ATA APM and AAM levels from IDENTIFY words 83, 86, 91 and 94 (ATA8-ACS 7.16.7; hdparm -B, -M).
#include "probe/power_levels.hpp"

#include "probe/core/assert.hpp"

namespace disktune::probe {

bool is_power_level(SettingId id) { return id == SettingId::apm || id == SettingId::aam; }

std::optional<std::string> power_level_missing(const IdentifyInfo& identify, SettingId id) {
  DT_ASSERT(is_power_level(id));
  if (id == SettingId::apm)
    return identify.apm.supported ? std::nullopt
                                  : std::optional<std::string>(
                                        "IDENTIFY word 83 bit 3 clear: the drive has no Advanced Power "
                                        "Management feature set (hdparm -B)");
  return identify.aam.supported ? std::nullopt
                                : std::optional<std::string>(
                                      "IDENTIFY word 83 bit 9 clear: the drive has no Automatic Acoustic "
                                      "Management feature set (hdparm -M)");
}

std::optional<std::int64_t> power_level_of(const IdentifyInfo& identify, SettingId id) {
  if (power_level_missing(identify, id)) return std::nullopt;
  if (id == SettingId::apm) return identify.apm.enabled == true && identify.apm_level ? *identify.apm_level : kApmDisabled;
  return identify.aam.enabled == true && identify.aam_level ? *identify.aam_level : kAamDisabled;
}

std::vector<SettingValue> power_level_ladder(SettingId id) {
  DT_ASSERT(is_power_level(id));
  if (id == SettingId::apm)
    return {SettingValue(kApmNoSpinDown), SettingValue(std::int64_t{192}), SettingValue(std::int64_t{254}),
            SettingValue(kApmDisabled)};
  return {SettingValue(std::int64_t{128}), SettingValue(std::int64_t{254})};
}

}  // namespace disktune::probe
