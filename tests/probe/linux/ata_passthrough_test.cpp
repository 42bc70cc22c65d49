// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for the SAT CDB builders, the sense decoder and the SG_IO verdict (pure code).
#include "probe/linux/ata_passthrough.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace disktune::probe;

namespace {

std::vector<unsigned> bytes(std::span<const std::uint8_t> data) { return {data.begin(), data.end()}; }

// Descriptor sense (0x72) with an ATA Status Return descriptor, laid out as SAT-3 / libata.
std::vector<std::uint8_t> ata_descriptor_sense(std::uint8_t key, std::uint8_t asc, std::uint8_t ascq,
                                               std::uint8_t status, std::uint8_t error) {
  return {0x72, key, asc, ascq, 0, 0, 0, 14,
          0x09, 0x0c, 0x00, error, 0x00, 0x10, 0x00, 0x01, 0x00, 0x02, 0x00, 0x03, 0xe0, status};
}

}  // namespace

TEST_CASE("build_ata16_cdb reproduces hdparm's worked CDBs", "[probe]") {
  SECTION("IDENTIFY DEVICE, 512 bytes from the device") {
    const auto cdb = build_ata16_cdb(identify_device_command());
    REQUIRE(bytes(cdb) == std::vector<unsigned>{0x85, 0x08, 0x0e, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0x40, 0xec, 0});
  }
  SECTION("SET FEATURES -X69 puts subcommand 0x03 in FEATURES and the mode in COUNT") {
    const auto cdb = build_ata16_cdb(set_xfermode_command(69));
    REQUIRE(bytes(cdb) == std::vector<unsigned>{0x85, 0x06, 0x20, 0, 0x03, 0, 0x45, 0, 0, 0, 0, 0, 0, 0x40, 0xef, 0});
  }
  SECTION("SET MULTIPLE MODE is non-data with the count in byte 6") {
    const auto cdb = build_ata16_cdb(set_multiple_command(16));
    REQUIRE(bytes(cdb) == std::vector<unsigned>{0x85, 0x06, 0x20, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0x40, 0xc6, 0});
  }
  SECTION("IDENTIFY PACKET DEVICE uses opcode 0xA1 in the COMMAND byte") {
    REQUIRE(build_ata16_cdb(identify_packet_command())[14] == 0xa1);
  }
}

TEST_CASE("build_ata12_cdb reproduces hdparm's 12-byte IDENTIFY", "[probe]") {
  const auto cdb = build_ata12_cdb(identify_device_command());
  REQUIRE(bytes(cdb) == std::vector<unsigned>{0xa1, 0x08, 0x0e, 0x00, 0x01, 0x00, 0x00, 0x00, 0x40, 0xec, 0x00, 0x00});
  const auto set = build_ata12_cdb(set_xfermode_command(66));
  REQUIRE(bytes(set) == std::vector<unsigned>{0xa1, 0x06, 0x20, 0x03, 0x42, 0x00, 0x00, 0x00, 0x40, 0xef, 0x00, 0x00});
}

TEST_CASE("decode_sense reads the ATA Status Return descriptor of descriptor sense", "[probe]") {
  const auto buffer = ata_descriptor_sense(0x01, 0x00, 0x1d, 0x50, 0x00);
  const auto sense = decode_sense(buffer);
  REQUIRE(sense);
  REQUIRE(sense->response_code == 0x72);
  REQUIRE(sense->key == 0x01);
  REQUIRE(sense->asc == 0x00);
  REQUIRE(sense->ascq == 0x1d);
  REQUIRE(sense->ata);
  REQUIRE(sense->ata->status == 0x50);
  REQUIRE(sense->ata->count == 0x10);
  REQUIRE(sense->ata->lba_low == 0x01);
  REQUIRE(sense->ata->lba_mid == 0x02);
  REQUIRE(sense->ata->lba_high == 0x03);
  REQUIRE(sense->ata->device == 0xe0);
  REQUIRE_FALSE(sense->ata->failed());
  REQUIRE(describe_sense(*sense) ==
          "RECOVERED ERROR, ATA pass-through information available (00/1d), ATA status 0x50 error 0x00");
}

TEST_CASE("decode_sense skips other descriptors and finds the ATA one", "[probe]") {
  std::vector<std::uint8_t> buffer{0x72, 0x0b, 0x00, 0x00, 0, 0, 0, 26,
                                   // an information descriptor (type 0, length 10)
                                   0x00, 0x0a, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const auto ata = ata_descriptor_sense(0x0b, 0, 0, 0x51, 0x04);
  buffer.insert(buffer.end(), ata.begin() + 8, ata.end());
  const auto sense = decode_sense(buffer);
  REQUIRE(sense);
  REQUIRE(sense->ata);
  REQUIRE(sense->ata->status == 0x51);
  REQUIRE(sense->ata->error == 0x04);
  REQUIRE(sense->ata->failed());
}

TEST_CASE("decode_sense reads fixed sense and its ATA registers when VALID", "[probe]") {
  SECTION("libata's invalid field refusal: no registers") {
    std::vector<std::uint8_t> buffer(18, 0);
    buffer[0] = 0x70;
    buffer[2] = 0x05;
    buffer[7] = 10;
    buffer[12] = 0x24;
    const auto sense = decode_sense(buffer);
    REQUIRE(sense);
    REQUIRE(sense->key == 0x05);
    REQUIRE(sense->asc == 0x24);
    REQUIRE_FALSE(sense->ata);
    REQUIRE(sense_means_unsupported(*sense));
    REQUIRE(describe_sense(*sense) == "ILLEGAL REQUEST, invalid field in CDB (24/00)");
  }
  SECTION("registers in INFORMATION and COMMAND-SPECIFIC fields (ata_scsi_set_passthru_sense_fields)") {
    const std::vector<std::uint8_t> buffer{0xf0, 0, 0x0b, 0x04, 0x51, 0xe0, 0x07, 10,
                                           0x80, 0x11, 0x22, 0x33, 0x00, 0x00, 0, 0, 0, 0};
    const auto sense = decode_sense(buffer);
    REQUIRE(sense);
    REQUIRE(sense->response_code == 0x70);
    REQUIRE(sense->key == 0x0b);
    REQUIRE(sense->ata);
    REQUIRE(sense->ata->error == 0x04);
    REQUIRE(sense->ata->status == 0x51);
    REQUIRE(sense->ata->device == 0xe0);
    REQUIRE(sense->ata->count == 0x07);
    REQUIRE(sense->ata->extend);
    REQUIRE(sense->ata->lba_low == 0x11);
    REQUIRE(sense->ata->lba_high == 0x33);
  }
  SECTION("garbage is not sense") {
    const std::vector<std::uint8_t> buffer{0x00, 0x05, 0x24, 0x00, 0, 0, 0, 0};
    REQUIRE_FALSE(decode_sense(buffer));
    REQUIRE_FALSE(decode_sense({}));
  }
}

TEST_CASE("interpret_sg_io maps refusals, drive errors and success", "[probe]") {
  const std::string op = "SG_IO ATA_16 SET FEATURES 0x03 count=69 (xfermode)";
  SECTION("invalid field in CDB is unsupported and says so") {
    std::vector<std::uint8_t> buffer(18, 0);
    buffer[0] = 0x70;
    buffer[2] = 0x05;
    buffer[12] = 0x24;
    const auto verdict = interpret_sg_io({0x02, 0, 0x08, buffer}, op, "/dev/sda");
    REQUIRE_FALSE(verdict.has_value());
    REQUIRE(verdict.error().is_unsupported());
    REQUIRE_FALSE(verdict.error().code == std::errc::io_error);
    REQUIRE(verdict.error().message() ==
            "SG_IO ATA_16 SET FEATURES 0x03 count=69 (xfermode) on /dev/sda: sense ILLEGAL REQUEST, "
            "invalid field in CDB (24/00)");
  }
  SECTION("ATA status ERR is EIO: rejected by the drive") {
    const auto buffer = ata_descriptor_sense(0x0b, 0, 0, 0x51, 0x04);
    const auto verdict = interpret_sg_io({0x02, 0, 0x08, buffer}, op, "/dev/sda");
    REQUIRE_FALSE(verdict.has_value());
    REQUIRE(verdict.error().code == std::errc::io_error);
    REQUIRE_FALSE(verdict.error().is_unsupported());
    REQUIRE_THAT(verdict.error().op, Catch::EndsWith("(ATA status 0x51 error 0x04)"));
  }
  SECTION("CK_COND success returns the registers") {
    const auto buffer = ata_descriptor_sense(0x01, 0x00, 0x1d, 0x50, 0x00);
    const auto verdict = interpret_sg_io({0x02, 0, 0x08, buffer}, op, "/dev/sda");
    REQUIRE(verdict.has_value());
    REQUIRE(*verdict);
    REQUIRE((*verdict)->status == 0x50);
  }
  SECTION("GOOD without sense is success without registers") {
    const auto verdict = interpret_sg_io({0x00, 0, 0, {}}, op, "/dev/sda");
    REQUIRE(verdict.has_value());
    REQUIRE_FALSE(*verdict);
  }
  SECTION("a host status means the command never reached a drive (EBADE)") {
    const auto verdict = interpret_sg_io({0x00, 0x07, 0, {}}, op, "/dev/sda");
    REQUIRE_FALSE(verdict.has_value());
    REQUIRE(verdict.error().code.value() == EBADE);
    REQUIRE_THAT(verdict.error().op, Catch::Contains("host status 0x07"));
  }
  SECTION("other sense keys are EIO with the sense text") {
    const std::vector<std::uint8_t> buffer{0x72, 0x03, 0x11, 0x04, 0, 0, 0, 0};
    const auto verdict = interpret_sg_io({0x02, 0, 0x08, buffer}, op, "/dev/sda");
    REQUIRE_FALSE(verdict.has_value());
    REQUIRE(verdict.error().code == std::errc::io_error);
    REQUIRE_THAT(verdict.error().op, Catch::Contains("MEDIUM ERROR, unrecovered read error"));
  }
}
