// SPDX-License-Identifier: GPL-2.0-or-later
// The seed's hdparm flag order and change sets.
#include "results/hdparm_flags.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;

namespace {
SettingValue num(std::int64_t number) { return SettingValue(number); }
}  // namespace

TEST_CASE("hdparm flags come in the seed's order whatever the setting order", "[results]") {
  // probe::Settings orders by SettingId (multcount first); the line must still read -X first.
  const probe::Settings changes{{SettingId::multcount, num(16)}, {SettingId::io_support, num(3)},
                                {SettingId::unmaskirq, num(1)}, {SettingId::using_dma, num(1)},
                                {SettingId::xfermode, num(66)}, {SettingId::readahead, num(256)},
                                {SettingId::read_ahead_kb, num(1024)}};
  REQUIRE(results::changes_as_hdparm_flags(changes) == "-X66 -d1 -u1 -m16 -c3 -a256");
  REQUIRE(results::describe_changes(changes) == "-X66 -d1 -u1 -m16 -c3 -a256 read_ahead_kb=1024");
  REQUIRE(results::changes_as_hdparm_flags({{SettingId::read_ahead_kb, num(1024)}}).empty());
  REQUIRE(results::queue_changes(changes) ==
          probe::Settings{{SettingId::read_ahead_kb, num(1024)}});
}

TEST_CASE("changed_settings keeps only values that differ from the baseline", "[results]") {
  const probe::Settings baseline{{SettingId::multcount, num(0)}, {SettingId::using_dma, num(1)}};
  const probe::Settings settings{{SettingId::multcount, num(16)}, {SettingId::using_dma, num(1)},
                                 {SettingId::scheduler, SettingValue(std::string("none"))}};
  REQUIRE(results::changed_settings(settings, baseline) ==
          probe::Settings{{SettingId::multcount, num(16)},
                          {SettingId::scheduler, SettingValue(std::string("none"))}});
}
