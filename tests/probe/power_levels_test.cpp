// SPDX-License-Identifier: GPL-2.0-or-later
// ATA APM (-B) and AAM (-M): identify decoding of corpus captures, AtaKnobs against a fake
// transport, the SIMULATED drive, and the levels the search offers (pruning reasons).
#include "probe/linux/ata_knobs.hpp"
#include "probe/power_levels.hpp"
#include "probe/identify/identify_text.hpp"
#include "probe/sim/sim_device.hpp"
#include "strategies/search_space.hpp"
#include "tests/support/fake_ata_transport.hpp"
#include "tests/support/require_value.hpp"
#include "tests/support/setting_values.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace disktune::probe;
using disktune::testing::FakeAtaTransport;
using disktune::testing::FakeDriver;
using disktune::testing::num;
using disktune::testing::require_value;

namespace {

const std::filesystem::path kCorpus = std::filesystem::path(DISKTUNE_TEST_DATA) / "identify";
// Word 83 bits 3 and 9 set, word 86 bits 3 and 9 set, word 91 = 4080h, word 94 = FEFEh.
const std::string kWithBoth = (kCorpus / "raw_words_libatasmart_fujitsu-mhy2120bh--0084000d.txt").string();
// An SSD: word 83 without bit 3 or bit 9.
const std::string kWithNeither = (kCorpus / "raw_words_libatasmart_intel-ssdsa2cw120g3--4pc10302.txt").string();

IdentifyInfo capture(const std::string& path) { return require_value(parse_identify_file(path)); }

std::unique_ptr<Device> sim_drive(const std::string& path) {
  return require_value(make_sim_device(path, DeviceOptions{}));
}

Capability capability_of(Device& device, SettingId id) {
  const auto caps = device.capabilities();
  const auto it = std::find_if(caps.begin(), caps.end(), [id](const auto& c) { return c.id == id; });
  REQUIRE(it != caps.end());
  return *it;
}

bool has_call(const FakeAtaTransport& fake, const std::string& call) {
  return std::find(fake.calls.begin(), fake.calls.end(), call) != fake.calls.end();
}

}  // namespace

TEST_CASE("identify words 83/86/91/94 give the APM and AAM levels of a real capture", "[probe]") {
  const auto both = capture(kWithBoth);
  REQUIRE(power_level_of(both, SettingId::apm) == 128);
  REQUIRE(power_level_of(both, SettingId::aam) == 254);
  REQUIRE(both.aam_recommended == 254);
  const auto neither = capture(kWithNeither);
  REQUIRE_FALSE(power_level_of(neither, SettingId::apm));
  REQUIRE_FALSE(power_level_of(neither, SettingId::aam));
  REQUIRE_THAT(*power_level_missing(neither, SettingId::apm), Catch::Contains("word 83 bit 3 clear"));
  REQUIRE_THAT(*power_level_missing(neither, SettingId::aam), Catch::Contains("word 83 bit 9 clear"));
}

TEST_CASE("hdparm -I text gives the APM level and both AAM values", "[probe]") {
  const auto crucial = capture((kCorpus / "hdparm-I_crucial-ct512m550ssd3-msata_partial-by-author.txt").string());
  REQUIRE(crucial.apm_level == 254);
  const auto maxtor = capture((kCorpus / "hdparm-I_maxtor-4a250j0_cur-chs-65535x1_mail-wrapped.txt").string());
  REQUIRE_FALSE(maxtor.apm_level);  // "unknown setting (0x0000)"
  REQUIRE(maxtor.aam_recommended == 192);
  REQUIRE(maxtor.aam_level == 192);
}

TEST_CASE("AtaKnobs: QEMU's identify offers neither APM nor AAM: unsupported with the word-83 reason", "[probe]") {
  FakeAtaTransport fake(FakeDriver::libata);
  AtaKnobs knobs(fake);
  for (const auto id : {SettingId::apm, SettingId::aam}) {
    const auto cap = knobs.capability(id);
    REQUIRE(cap.support == Support::unsupported);
    REQUIRE_THAT(cap.reason, Catch::Contains("word 83 bit"));
  }
  // Nothing but identify was sent: a drive without the feature set is never commanded.
  REQUIRE(std::none_of(fake.calls.begin(), fake.calls.end(),
                       [](const std::string& c) { return c.find("SET FEATURES") != std::string::npos; }));
}

TEST_CASE("AtaKnobs: APM set, read back from word 91, disabled with 85h and restored", "[probe]") {
  auto driver = GENERATE(FakeDriver::libata, FakeDriver::legacy_ide);
  FakeAtaTransport fake(driver);
  fake.apm_supported = fake.apm_enabled = true;
  fake.apm_level = 128;
  AtaKnobs knobs(fake);
  REQUIRE(knobs.capability(SettingId::apm).support == Support::supported);
  REQUIRE(require_value(knobs.read(SettingId::apm)) == num(128));
  REQUIRE(knobs.apply(SettingId::apm, num(254)));
  REQUIRE(require_value(knobs.read(SettingId::apm)) == num(254));
  REQUIRE(knobs.apply(SettingId::apm, num(kApmDisabled)));
  REQUIRE_FALSE(fake.apm_enabled);
  REQUIRE(require_value(knobs.read(SettingId::apm)) == num(kApmDisabled));
  const std::string via = driver == FakeDriver::libata ? "sg_ata 16 " : "drive_cmd ";
  REQUIRE(has_call(fake, via + "SET FEATURES 0x85 count=0 (apm off)"));
  REQUIRE(knobs.apply(SettingId::apm, num(128)));
  REQUIRE(fake.apm_enabled);
  REQUIRE(require_value(knobs.read(SettingId::apm)) == num(128));
  REQUIRE(has_call(fake, via + "SET FEATURES 0x05 count=128 (apm)"));
}

TEST_CASE("AtaKnobs: AAM set, read back from word 94, disabled with C2h and restored", "[probe]") {
  FakeAtaTransport fake(FakeDriver::libata);
  fake.aam_supported = true;  // supported, disabled as found
  AtaKnobs knobs(fake);
  REQUIRE(knobs.capability(SettingId::aam).support == Support::supported);
  REQUIRE(require_value(knobs.read(SettingId::aam)) == num(kAamDisabled));
  REQUIRE(knobs.apply(SettingId::aam, num(128)));
  REQUIRE(require_value(knobs.read(SettingId::aam)) == num(128));
  REQUIRE(has_call(fake, "sg_ata 16 SET FEATURES 0x42 count=128 (aam)"));
  REQUIRE(knobs.apply(SettingId::aam, num(kAamDisabled)));
  REQUIRE_FALSE(fake.aam_enabled);
  REQUIRE(has_call(fake, "sg_ata 16 SET FEATURES 0xC2 count=0 (aam off)"));
  // The APM bit is clear: the drive aborts an APM command, and the knob says why first.
  REQUIRE_FALSE(knobs.apply(SettingId::apm, num(254)));
  REQUIRE(knobs.capability(SettingId::apm).support == Support::unsupported);
}

TEST_CASE("the SIMULATED drive takes APM and AAM only where the capture's identify offers them", "[probe]") {
  auto with = sim_drive(kWithBoth);
  REQUIRE(capability_of(*with, SettingId::apm).support == Support::supported);
  REQUIRE(capability_of(*with, SettingId::aam).support == Support::supported);
  const auto original = require_value(with->snapshot());
  REQUIRE(original.at(SettingId::apm) == num(128));
  REQUIRE(original.at(SettingId::aam) == num(254));
  REQUIRE(with->restore(with_changes(original, {{SettingId::apm, num(kApmDisabled)}, {SettingId::aam, num(128)}})));
  const auto changed = require_value(with->identify());
  REQUIRE(changed.apm.enabled == false);
  REQUIRE_FALSE(changed.apm_level);
  REQUIRE(changed.aam_level == 128);
  REQUIRE(with->restore(original));
  REQUIRE(require_value(with->snapshot()) == original);
  REQUIRE(require_value(with->identify()).apm_level == 128);

  auto without = sim_drive(kWithNeither);
  for (const auto id : {SettingId::apm, SettingId::aam}) {
    const auto cap = capability_of(*without, id);
    REQUIRE(cap.support == Support::unsupported);
    REQUIRE_THAT(cap.reason, Catch::Contains("word 83 bit") && Catch::Contains("simulated"));
    REQUIRE_FALSE(without->apply(id, num(254)));
  }
  REQUIRE_FALSE(require_value(without->snapshot()).count(SettingId::apm));
}

TEST_CASE("the search offers APM 128/192/254/off and AAM 128/254, spin-down levels pruned with the reason", "[strategies]") {
  auto device = sim_drive(kWithBoth);
  const auto identify = require_value(device->identify());
  const auto baseline = require_value(device->snapshot());
  const auto space = disktune::strategies::build_space(identify, device->capabilities(), baseline, {});
  REQUIRE(space.values(SettingId::apm) == std::vector{num(128), num(192), num(254), num(255)});
  REQUIRE(space.values(SettingId::aam) == std::vector{num(128), num(254)});
  const auto& pruned = space.pruned();
  const auto spin = std::find_if(pruned.begin(), pruned.end(),
                                 [](const auto& p) { return p.reason == kApmSpinDownReason; });
  REQUIRE(spin != pruned.end());
  REQUIRE(spin->count == kApmSpinDownLevels);
  // On a disk in use both are data-safe: still searched.
  disktune::strategies::SpaceOptions in_use;
  in_use.data_in_use = true;
  const auto mounted = disktune::strategies::build_space(identify, device->capabilities(), baseline, in_use);
  REQUIRE(mounted.values(SettingId::apm).size() == 4);

  auto ssd = sim_drive(kWithNeither);
  const auto ssd_space = disktune::strategies::build_space(require_value(ssd->identify()), ssd->capabilities(),
                                                           require_value(ssd->snapshot()), {});
  const auto& excluded = ssd_space.excluded();
  REQUIRE(std::any_of(excluded.begin(), excluded.end(), [](const auto& e) {
    return e.id == SettingId::apm && e.reason.find("unsupported: IDENTIFY word 83 bit 3 clear") == 0;
  }));
}

TEST_CASE("apm and aam values parse in their ranges only", "[probe]") {
  REQUIRE(require_value(parse_value(SettingId::apm, "255")) == num(255));
  REQUIRE_FALSE(parse_value(SettingId::apm, "0"));
  REQUIRE_FALSE(parse_value(SettingId::apm, "256"));
  REQUIRE(require_value(parse_value(SettingId::aam, "0")) == num(0));
  REQUIRE_FALSE(parse_value(SettingId::aam, "256"));
  REQUIRE(setting_from_name("apm") == SettingId::apm);
  REQUIRE(setting_from_name("aam") == SettingId::aam);
}

TEST_CASE("hdparm -i text gives the APM level of 'mode=0xNN (N)'", "[probe]") {
  const std::string seed = DISKTUNE_TEST_DATA "/identify/seed_ibm-djna-352500.hdparm-i.txt";
  std::ifstream in(seed);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find(" DblWordIO");
  REQUIRE(at != std::string::npos);
  const auto parsed = [&](const std::string& apm) {
    return require_value(parse_identify_text(text.substr(0, at) + " AdvancedPM=" + apm + "\n" + text.substr(at),
                                             IdentifyFormat::hdparm_i, "seed+apm"));
  };
  const auto enabled = parsed("yes: mode=0xC0 (192)");
  REQUIRE(power_level_of(enabled, SettingId::apm) == 192);
  REQUIRE(power_level_of(parsed("yes: disabled (255)"), SettingId::apm) == kApmDisabled);
  REQUIRE_FALSE(power_level_of(parsed("no"), SettingId::apm));
}
