// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for parsing simulated-drive behaviour profiles.
#include "probe/sim/sim_profile.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace disktune::probe;

namespace {

std::string error_of(std::string_view text) {
  auto parsed = parse_sim_profile(text, "p.json");
  REQUIRE_FALSE(parsed.has_value());
  CHECK(parsed.error().code == std::make_error_code(std::errc::invalid_argument));
  CHECK(parsed.error().path == "p.json");
  return parsed.error().message();
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a full sim profile parses into its values", "[probe]") {
  auto parsed = parse_sim_profile(R"({
    "media_mib_s": 21.5, "noise_pct": 0, "cable_80wire": true, "rotation_rpm": 5400,
    "faults": [
      {"when": {"xfermode": "udma4", "unmaskirq": 1}, "effect": "hang"},
      {"when": {"xfermode": 34, "multcount": "8"}, "effect": "corrupt"},
      {"effect": "slow"}
    ]})", "p.json");
  REQUIRE(parsed.has_value());
  CHECK(parsed->media_mib_s == 21.5);
  CHECK(parsed->noise_pct == 0.0);
  CHECK(parsed->cable_80wire == true);
  CHECK(parsed->rotation_rpm == 5400);
  REQUIRE(parsed->faults.size() == 3);
  CHECK(parsed->faults[0].effect == FaultEffect::hang);
  CHECK(format_settings(parsed->faults[0].when) == "unmaskirq=1 xfermode=udma4");
  CHECK(format_settings(parsed->faults[1].when) == "multcount=8 xfermode=mdma2");
  CHECK(parsed->faults[2].effect == FaultEffect::slow);
  CHECK(parsed->faults[2].when.empty());
}

TEST_CASE("an empty sim profile keeps the defaults", "[probe]") {
  auto parsed = parse_sim_profile("{}", "p.json");
  REQUIRE(parsed.has_value());
  CHECK_FALSE(parsed->media_mib_s.has_value());
  CHECK(parsed->noise_pct == 2.0);
  CHECK_FALSE(parsed->cable_80wire.has_value());
  CHECK_FALSE(parsed->rotation_rpm.has_value());
  CHECK(parsed->faults.empty());
}

TEST_CASE("faults match when every when-entry equals the current value", "[probe]") {
  auto parsed = parse_sim_profile(
      R"({"faults": [{"when": {"using_dma": 1, "xfermode": "udma2"}, "effect": "eio"}]})", "p");
  REQUIRE(parsed.has_value());
  Settings now{{SettingId::using_dma, SettingValue(std::int64_t{1})},
               {SettingId::xfermode, SettingValue(std::int64_t{66})},
               {SettingId::multcount, SettingValue(std::int64_t{16})}};
  CHECK(has_fault(*parsed, FaultEffect::eio, now));
  CHECK_FALSE(has_fault(*parsed, FaultEffect::hang, now));
  now[SettingId::xfermode] = SettingValue(std::int64_t{34});
  CHECK_FALSE(has_fault(*parsed, FaultEffect::eio, now));
}

TEST_CASE("sim profile errors name the file, the key and the reason", "[probe]") {
  CHECK(contains(error_of(R"({"media": 3})"), "key 'media': unknown key"));
  CHECK(contains(error_of(R"({"media_mib_s": "fast"})"), "key 'media_mib_s': expected a number"));
  CHECK(contains(error_of(R"({"media_mib_s": 0})"), "media_mib_s"));
  CHECK(contains(error_of(R"({"noise_pct": 80})"), "noise_pct"));
  CHECK(contains(error_of(R"({"cable_80wire": 1})"), "expected true or false"));
  CHECK(contains(error_of(R"({"rotation_rpm": 1000})"), "key 'rotation_rpm': expected 1"));
  CHECK(contains(error_of(R"({"rotation_rpm": 7200.5})"), "rotation_rpm"));
  CHECK(contains(error_of(R"({"rotation_rpm": 0})"), "rotation_rpm"));
  CHECK(parse_sim_profile(R"({"rotation_rpm": 1})", "p")->rotation_rpm == 1);
  CHECK(contains(error_of(R"({"faults": {}})"), "key 'faults': expected an array"));
  CHECK(contains(error_of(R"({"faults": [{"effect": "hang", "why": 1}]})"),
                 "key 'faults[0].why': unknown key"));
  CHECK(contains(error_of(R"({"faults": [{"effect": "explode"}]})"), "unknown effect 'explode'"));
  CHECK(contains(error_of(R"({"faults": [{"when": {}}]})"), "key 'faults[0].effect': missing"));
  CHECK(contains(error_of(R"({"faults": [{"when": {"multcont": 8}, "effect": "eio"}]})"),
                 "key 'faults[0].when.multcont': unknown setting name"));
  CHECK(contains(error_of(R"({"faults": [{"when": {"scheduler": "mq-deadline"}, "effect": "eio"}]})"),
                 "not a setting of the simulated legacy IDE driver"));
  CHECK(contains(error_of(R"({"faults": [{"when": {"xfermode": [66]}, "effect": "eio"}]})"),
                 "expected a number or a string"));
  CHECK(contains(error_of(R"({"faults": [{"when": {"xfermode": "udma9"}, "effect": "eio"}]})"),
                 "xfermode"));
  CHECK(contains(error_of("[1, 2]"), "expected a JSON object"));
  CHECK(contains(error_of("{\"noise_pct\": "), "invalid JSON"));
  CHECK(contains(error_of(R"({"media": 3})"), "on p.json"));
}

TEST_CASE("load_sim_profile reads a file and reports a missing one", "[probe]") {
  const auto path = std::filesystem::temp_directory_path() / "disktune_sim_profile_test.json";
  {
    std::ofstream out(path);
    out << R"({"noise_pct": 1.5, "faults": [{"when": {"using_dma": 1}, "effect": "revert"}]})";
  }
  auto loaded = load_sim_profile(path.string());
  std::filesystem::remove(path);
  REQUIRE(loaded.has_value());
  CHECK(loaded->noise_pct == 1.5);
  REQUIRE(loaded->faults.size() == 1);
  CHECK(loaded->faults[0].effect == FaultEffect::revert);
  auto missing = load_sim_profile(path.string());
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().code.value() == ENOENT);
  CHECK(missing.error().path == path.string());
}

TEST_CASE("the example hazard profile in tests/data loads with one fault of each effect", "[probe]") {
  auto loaded = load_sim_profile(std::string(DISKTUNE_TEST_DATA) + "/sim/hazards.json");
  REQUIRE(loaded.has_value());
  CHECK(loaded->cable_80wire == true);
  REQUIRE(loaded->faults.size() == 7);
  const FaultEffect expected[] = {FaultEffect::hang,   FaultEffect::corrupt, FaultEffect::eio,
                                  FaultEffect::revert, FaultEffect::reject,  FaultEffect::unsupported,
                                  FaultEffect::slow};
  for (std::size_t i = 0; i < 7; ++i) CHECK(loaded->faults[i].effect == expected[i]);
}
