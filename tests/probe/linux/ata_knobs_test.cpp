// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for AtaKnobs against a SIMULATED libata and legacy IDE driver (FakeAtaTransport).
#include "probe/linux/ata_knobs.hpp"

#include "tests/support/fake_ata_transport.hpp"
#include "tests/support/require_value.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

using namespace disktune::probe;
using disktune::testing::FakeAtaTransport;
using disktune::testing::FakeDriver;
using disktune::testing::require_value;

namespace {

SettingValue n(std::int64_t value) { return SettingValue(value); }

std::size_t count_calls(const FakeAtaTransport& fake, const std::string& call) {
  return static_cast<std::size_t>(std::count(fake.calls.begin(), fake.calls.end(), call));
}

}  // namespace

TEST_CASE("AtaKnobs on libata: unsupported knobs carry the refusing call", "[probe]") {
  FakeAtaTransport fake(FakeDriver::libata);
  AtaKnobs knobs(fake);

  SECTION("using_dma: the SET of the current value is refused with ENOTTY") {
    const auto cap = knobs.capability(SettingId::using_dma);
    REQUIRE(cap.support == Support::unsupported);
    REQUIRE(cap.reason == std::string("ioctl(HDIO_SET_DMA 1) on /dev/sda: ") + std::strerror(ENOTTY));
  }
  SECTION("unmaskirq: HDIO_GET_UNMASKINTR is refused") {
    const auto cap = knobs.capability(SettingId::unmaskirq);
    REQUIRE(cap.support == Support::unsupported);
    REQUIRE(cap.reason == std::string("ioctl(HDIO_GET_UNMASKINTR) on /dev/sda: ") + std::strerror(ENOTTY));
  }
  SECTION("xfermode: re-sending the current mode is refused with sense 24/00") {
    const auto cap = knobs.capability(SettingId::xfermode);
    REQUIRE(cap.support == Support::unsupported);
    REQUIRE(cap.reason ==
            "SG_IO ATA_16 SET FEATURES 0x03 count=34 (xfermode) on /dev/sda: sense ILLEGAL REQUEST, "
            "invalid field in CDB (24/00)");
    REQUIRE(fake.xfer_code == 34);
    auto applied = knobs.apply(SettingId::xfermode, n(66));
    REQUIRE_FALSE(applied);
    REQUIRE(applied.error().is_unsupported());
    REQUIRE(count_calls(fake, "drive_cmd SET FEATURES 0x03 count=66 (xfermode)") == 0);
  }
  SECTION("xfermode reads libata's xfer_mode attribute") {
    fake.xfer_code = 69;
    REQUIRE(require_value(knobs.read(SettingId::xfermode)) == n(69));
  }
}

TEST_CASE("AtaKnobs on libata: io_support takes only the current value on a plain port", "[probe]") {
  FakeAtaTransport fake(FakeDriver::libata);
  fake.io_support = 1;
  AtaKnobs knobs(fake);
  const auto cap = knobs.capability(SettingId::io_support);
  REQUIRE(cap.support == Support::read_only);
  REQUIRE(cap.reason == std::string("ioctl(HDIO_SET_32BIT 0) on /dev/sda: ") + std::strerror(EINVAL) +
                            " (only the current value 1 is accepted)");
  REQUIRE(fake.io_support == 1);
  REQUIRE(count_calls(fake, "hdio_set HDIO_SET_32BIT 0") == 1);
  REQUIRE(count_calls(fake, "hdio_set HDIO_SET_32BIT 3") == 1);
}

TEST_CASE("AtaKnobs on libata: io_support on a PIO32CHANGE port offers 0 and 1 and restores", "[probe]") {
  FakeAtaTransport fake(FakeDriver::libata);
  fake.io_support = 0;
  fake.pio32_change = true;
  AtaKnobs knobs(fake);
  const auto cap = knobs.capability(SettingId::io_support);
  REQUIRE(cap.support == Support::supported);
  REQUIRE(cap.values == std::vector<SettingValue>{n(0), n(1)});  // 3 reads back as 1: not offered
  REQUIRE(fake.io_support == 0);
  // Every probe write is followed by a restore of 0.
  REQUIRE(fake.calls == std::vector<std::string>{
                            "hdio_get HDIO_GET_32BIT", "hdio_set HDIO_SET_32BIT 1", "hdio_get HDIO_GET_32BIT",
                            "hdio_set HDIO_SET_32BIT 0", "hdio_get HDIO_GET_32BIT", "hdio_set HDIO_SET_32BIT 3",
                            "hdio_get HDIO_GET_32BIT", "hdio_set HDIO_SET_32BIT 0", "hdio_get HDIO_GET_32BIT"});
  // Discovered once: asking again sends nothing.
  fake.calls.clear();
  REQUIRE(knobs.capability(SettingId::io_support).values.size() == 2);
  REQUIRE(fake.calls.empty());
}

TEST_CASE("AtaKnobs on libata: multcount goes through SG_IO SET MULTIPLE and reads back word 59", "[probe]") {
  FakeAtaTransport fake(FakeDriver::libata);
  AtaKnobs knobs(fake);
  const auto cap = knobs.capability(SettingId::multcount);
  REQUIRE(cap.support == Support::supported);
  REQUIRE(count_calls(fake, "sg_ata 16 SET MULTIPLE MODE 0xC6 count=16 (multcount)") == 1);
  REQUIRE(fake.multsect == 16);

  SECTION("an accepted count reads back from a fresh IDENTIFY") {
    REQUIRE(knobs.apply(SettingId::multcount, n(8)));
    REQUIRE(fake.multsect == 8);
    fake.calls.clear();
    REQUIRE(require_value(knobs.read(SettingId::multcount)) == n(8));
    REQUIRE(count_calls(fake, "sg_ata 16 IDENTIFY") == 1);
  }
  SECTION("multcount 0 clears word 59 and reads back as 0") {
    REQUIRE(knobs.apply(SettingId::multcount, n(0)));
    REQUIRE(require_value(knobs.read(SettingId::multcount)) == n(0));
  }
  SECTION("a count the drive aborts is EIO, rejected by the device, not unsupported") {
    fake.aborted_multcounts = {4};
    auto applied = knobs.apply(SettingId::multcount, n(4));
    REQUIRE_FALSE(applied);
    REQUIRE(applied.error().code == std::errc::io_error);
    REQUIRE_FALSE(applied.error().is_unsupported());
    REQUIRE(applied.error().message() ==
            "SG_IO ATA_16 SET MULTIPLE MODE 0xC6 count=4 (multcount) (ATA status 0x51 error 0x04) on /dev/sda: " +
                std::string(std::strerror(EIO)));
    REQUIRE(fake.multsect == 16);
  }
}

TEST_CASE("AtaKnobs on the legacy IDE driver: every knob supported, xfermode via HDIO_DRIVE_CMD", "[probe]") {
  FakeAtaTransport fake(FakeDriver::legacy_ide, "/dev/hdb");
  fake.io_support = 0;
  fake.xfer_code = 66;
  AtaKnobs knobs(fake);
  for (const auto id : {SettingId::multcount, SettingId::unmaskirq, SettingId::using_dma, SettingId::xfermode}) {
    INFO(setting_name(id));
    const auto cap = knobs.capability(id);
    REQUIRE(cap.reason.empty());
    REQUIRE(cap.support == Support::supported);
  }
  const auto io = knobs.capability(SettingId::io_support);
  REQUIRE(io.support == Support::supported);
  REQUIRE(io.values == std::vector<SettingValue>{n(0), n(1), n(3)});
  REQUIRE(fake.io_support == 0);
  REQUIRE(count_calls(fake, "drive_cmd SET FEATURES 0x03 count=66 (xfermode)") == 1);
  REQUIRE(count_calls(fake, "hdio_set HDIO_SET_DMA 1") == 0);  // would re-select the mode
  REQUIRE(count_calls(fake, "hdio_set HDIO_SET_UNMASKINTR 0") == 1);
  REQUIRE(count_calls(fake, "hdio_set HDIO_SET_MULTCOUNT 16") == 1);

  SECTION("xfermode applies through HDIO_DRIVE_CMD after SG_IO is unavailable and reads back identify") {
    fake.calls.clear();
    REQUIRE(knobs.apply(SettingId::xfermode, n(68)));
    REQUIRE(fake.calls == std::vector<std::string>{"sg_ata 16 SET FEATURES 0x03 count=68 (xfermode)",
                                                   "drive_cmd SET FEATURES 0x03 count=68 (xfermode)"});
    REQUIRE(require_value(knobs.read(SettingId::xfermode)) == n(68));
  }
  SECTION("multcount uses HDIO_SET_MULTCOUNT; a value above MaxMultSect is unsupported (EINVAL)") {
    REQUIRE(knobs.apply(SettingId::multcount, n(4)));
    REQUIRE(require_value(knobs.read(SettingId::multcount)) == n(4));
    auto too_big = knobs.apply(SettingId::multcount, n(32));
    REQUIRE_FALSE(too_big);
    REQUIRE(too_big.error().is_unsupported());
    REQUIRE(too_big.error().op == "ioctl(HDIO_SET_MULTCOUNT 32)");
  }
  SECTION("io_support 3 refused by a driver without VLB sync is left out") {
    FakeAtaTransport no_sync(FakeDriver::legacy_ide, "/dev/hda");
    no_sync.legacy_32bit_values = {0, 1};
    AtaKnobs other(no_sync);
    const auto cap = other.capability(SettingId::io_support);
    REQUIRE(cap.support == Support::supported);
    REQUIRE(cap.values == std::vector<SettingValue>{n(0), n(1)});
    REQUIRE(no_sync.io_support == 1);
  }
}

TEST_CASE("AtaKnobs::identify: HDIO first, SG_IO IDENTIFY otherwise, not_supported with reasons", "[probe]") {
  SECTION("the kernel's copy when HDIO_GET_IDENTITY answers") {
    FakeAtaTransport fake(FakeDriver::libata);
    AtaKnobs knobs(fake);
    const auto info = require_value(knobs.identify());
    REQUIRE(info.model == "QEMU HARDDISK");
    REQUIRE(info.source == IdentifySource::live);
    REQUIRE(info.max_multsect == 16);
    REQUIRE(info.mdma_active == 2);
    REQUIRE(info.checksum == Checksum::valid);
    REQUIRE(fake.calls == std::vector<std::string>{"hdio_identity"});
  }
  SECTION("SG_IO ATA_16 IDENTIFY when HDIO_GET_IDENTITY is refused") {
    FakeAtaTransport fake(FakeDriver::libata);
    fake.hdio_identity_works = false;
    AtaKnobs knobs(fake);
    const auto info = require_value(knobs.identify());
    REQUIRE(info.model == "QEMU HARDDISK");
    REQUIRE(info.serial == "QM00001");
    REQUIRE(info.multsect == 16);
    REQUIRE(fake.calls == std::vector<std::string>{"hdio_identity", "sg_ata 16 IDENTIFY"});
  }
  SECTION("the 12-byte CDB when the SAT layer does not know ATA_16") {
    FakeAtaTransport fake(FakeDriver::libata);
    fake.hdio_identity_works = false;
    fake.knows_ata16 = false;
    AtaKnobs knobs(fake);
    REQUIRE(require_value(knobs.identify()).model == "QEMU HARDDISK");
    REQUIRE(fake.calls == std::vector<std::string>{"hdio_identity", "sg_ata 16 IDENTIFY", "sg_ata 12 IDENTIFY"});
  }
  SECTION("IDENTIFY PACKET DEVICE after an ATAPI device aborts IDENTIFY DEVICE") {
    FakeAtaTransport fake(FakeDriver::libata, "/dev/sr0");
    fake.hdio_identity_works = false;
    fake.atapi = true;
    AtaKnobs knobs(fake);
    const auto info = require_value(knobs.identify());
    REQUIRE(info.device_type == DeviceType::atapi);
    REQUIRE(fake.calls ==
            std::vector<std::string>{"hdio_identity", "sg_ata 16 IDENTIFY", "sg_ata 16 IDENTIFY PACKET"});
  }
  SECTION("an all-zero answer (a bridge without SAT) is no identify data") {
    FakeAtaTransport fake(FakeDriver::libata, "/dev/sdc");
    fake.hdio_identity_works = false;
    fake.zero_identify = true;
    AtaKnobs knobs(fake);
    auto info = knobs.identify();
    REQUIRE_FALSE(info);
    REQUIRE(info.error().code == std::errc::not_supported);
    REQUIRE_THAT(info.error().op, Catch::Contains("SG_IO ATA_16 IDENTIFY returned an all-zero block"));
  }
  SECTION("a device that answers neither is not_supported and keeps both refusals") {
    FakeAtaTransport fake(FakeDriver::libata, "/dev/vdb");
    fake.answers_identify = false;
    AtaKnobs knobs(fake);
    auto info = knobs.identify();
    REQUIRE_FALSE(info);
    REQUIRE(info.error().code == std::errc::not_supported);
    REQUIRE(info.error().is_unsupported());
    const std::string enotty = std::strerror(ENOTTY);
    REQUIRE(info.error().op == "no identify data (ioctl(HDIO_GET_IDENTITY) on /dev/vdb: " + enotty +
                                   "; ioctl(SG_IO ATA_16 IDENTIFY) on /dev/vdb: " + enotty + ")");
    for (const auto id : {SettingId::multcount, SettingId::io_support, SettingId::unmaskirq, SettingId::using_dma,
                          SettingId::xfermode})
      REQUIRE(knobs.capability(id).support == Support::unsupported);
    REQUIRE_THAT(knobs.capability(SettingId::xfermode).reason,
                 Catch::StartsWith("SET FEATURES 0x03 not attempted: no identify data on /dev/vdb"));
  }
}
