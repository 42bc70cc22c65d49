// SPDX-License-Identifier: GPL-2.0-or-later
// Hand-built seed-like identify data and legacy capabilities for tests.
#include "tests/support/seed_like_identify.hpp"

#include "probe/power_levels.hpp"

namespace disktune::testing {

using probe::SettingId;
using probe::SettingValue;

probe::IdentifyInfo seed_like_identify() {
  probe::IdentifyInfo id;
  id.model = "IBM-DJNA-352500";
  id.firmware = "J51OA30K";
  id.max_multsect = 16;
  id.multsect = 16;
  id.dma_supported = id.lba_supported = id.iordy_supported = true;
  id.pio_modes = {0, 1, 2, 3, 4};
  id.mdma_modes = {0, 1, 2};
  id.udma_modes = {0, 1, 2, 3, 4};
  id.udma_active = 2;
  id.lba_sectors = 49981680;
  id.source = probe::IdentifySource::hdparm_i;
  return id;
}

std::vector<probe::Capability> legacy_capabilities() {
  std::vector<probe::Capability> caps;
  for (const auto id : probe::all_settings()) {
    if (probe::is_power_level(id)) {  // the seed's identify has neither APM nor AAM
      caps.push_back({id, probe::Support::unsupported, {}, *probe::power_level_missing(seed_like_identify(), id)});
      continue;
    }
    const bool legacy = probe::setting_info(id).sysfs_attr.empty();
    caps.push_back({id, legacy ? probe::Support::supported : probe::Support::unsupported, {},
                    legacy ? "" : "legacy IDE driver: no blk-mq queue attributes"});
  }
  return caps;
}

probe::Settings seed_baseline() {
  return {{SettingId::multcount, SettingValue(std::int64_t{0})},
          {SettingId::io_support, SettingValue(std::int64_t{0})},
          {SettingId::unmaskirq, SettingValue(std::int64_t{0})},
          {SettingId::using_dma, SettingValue(std::int64_t{0})},
          {SettingId::xfermode, SettingValue(std::int64_t{66})},
          {SettingId::readahead, SettingValue(std::int64_t{8})}};
}

}  // namespace disktune::testing
