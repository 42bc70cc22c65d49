// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for setting names and value encodings.
#include "probe/settings.hpp"

#include <catch2/catch.hpp>

using namespace disktune::probe;

TEST_CASE("xfermode values use hdparm's -X codes and names", "[probe]") {
  REQUIRE(xfermode_code(XferFamily::udma, 2) == 66);
  REQUIRE(xfermode_code(XferFamily::mdma, 2) == 34);
  REQUIRE(xfermode_code(XferFamily::pio, 4) == 12);
  REQUIRE(format_value(SettingId::xfermode, SettingValue(std::int64_t{68})) == "udma4");
  auto parsed = parse_value(SettingId::xfermode, "udma2");
  REQUIRE(parsed);
  REQUIRE(parsed->number() == 66);
  auto decimal = parse_value(SettingId::xfermode, "34");
  REQUIRE(decimal);
  REQUIRE(format_value(SettingId::xfermode, *decimal) == "mdma2");
  REQUIRE(xfermode_is_dma(66));
  REQUIRE_FALSE(xfermode_is_dma(12));
}

TEST_CASE("parse_value rejects malformed values with the setting named", "[probe]") {
  auto bad = parse_value(SettingId::multcount, "sixteen");
  REQUIRE_FALSE(bad);
  REQUIRE(bad.error().message().find("multcount") != std::string::npos);
  REQUIRE_FALSE(parse_value(SettingId::xfermode, "udma9"));
  REQUIRE_FALSE(parse_value(SettingId::xfermode, "5"));
  REQUIRE_FALSE(parse_value(SettingId::readahead, "-1"));
}

TEST_CASE("a scheduler is a kernel elevator name: no blanks, newlines, brackets or shell and udev metacharacters", "[probe]") {
  for (const char* name : {"mq-deadline", "bfq", "kyber", "none", "my_sched.2"}) {
    const auto parsed = parse_value(SettingId::scheduler, name);
    REQUIRE(parsed);
    REQUIRE(parsed->text() == name);
  }
  for (const char* name : {"kyber\n", " kyber", "kyber bfq", "[kyber]", "none; rm -rf /", "$(id)", "a\"b", "bfq,", "x`y`",
                           "abcdefghijklmnopqrstuvwxyzabcdefg"}) {
    const auto parsed = parse_value(SettingId::scheduler, name);
    REQUIRE_FALSE(parsed);
    REQUIRE_THAT(parsed.error().message(), Catch::Contains("scheduler"));
  }
  REQUIRE_FALSE(parse_value(SettingId::scheduler, std::string_view("none\0x", 6)));
}

TEST_CASE("setting names round-trip and the apply order puts scheduler before nr_requests", "[probe]") {
  for (const auto id : all_settings()) REQUIRE(setting_from_name(setting_name(id)) == id);
  REQUIRE_FALSE(setting_from_name("dma"));
  Settings settings{{SettingId::nr_requests, SettingValue(std::int64_t{64})},
                    {SettingId::scheduler, SettingValue(std::string("none"))}};
  REQUIRE(format_settings(settings) == "scheduler=none nr_requests=64");
}
