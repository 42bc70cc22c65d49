// SPDX-License-Identifier: GPL-2.0-or-later
// The knobs refused on a disk in use: exactly the ones the hdparm manual warns about.
#include "probe/in_use.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;

TEST_CASE("in_use_hazard names every risky knob and no safe one", "[probe]") {
  std::vector<SettingId> refused;
  for (const auto id : probe::all_settings()) {
    INFO(probe::setting_name(id));
    const auto hazard = probe::in_use_hazard(id);
    REQUIRE(hazard.has_value() == (probe::setting_info(id).risk == probe::Risk::risky));
    if (hazard) {
      REQUIRE(!hazard->empty());
      refused.push_back(id);
    }
  }
  std::sort(refused.begin(), refused.end());
  REQUIRE(refused == std::vector{SettingId::multcount, SettingId::io_support, SettingId::unmaskirq,
                                 SettingId::using_dma, SettingId::xfermode});
}

TEST_CASE("in_use_hazard gives multcount's EIO and each manual warning", "[probe]") {
  REQUIRE_THAT(std::string(*probe::in_use_hazard(SettingId::multcount)), Catch::Contains("EIO"));
  REQUIRE_THAT(std::string(*probe::in_use_hazard(SettingId::unmaskirq)), Catch::Contains("corruption"));
  REQUIRE_THAT(std::string(*probe::in_use_hazard(SettingId::xfermode)), Catch::Contains("corruption"));
  REQUIRE_THAT(std::string(*probe::in_use_hazard(SettingId::io_support)), Catch::Contains("garbage"));
  REQUIRE_THAT(std::string(*probe::in_use_hazard(SettingId::using_dma)), Catch::Contains("xfermode"));
}
