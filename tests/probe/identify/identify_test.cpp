// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for decode_identify on IDENTIFY words built here, bit by bit.
#include "probe/identify/identify.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <string_view>

using namespace disktune::probe;

namespace {

using Words = std::array<std::uint16_t, 256>;

// ATA string packing: first character in the high byte, blank padded.
void put_string(Words& words, std::size_t first, std::size_t count, std::string_view text) {
  for (std::size_t i = 0; i < count; ++i) {
    const auto at = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : ' '; };
    words[first + i] = static_cast<std::uint16_t>((at(2 * i) << 8) | at(2 * i + 1));
  }
}

// Set word 255 to signature 0xA5 with the checksum byte that makes all bytes sum to 0.
void seal(Words& words) {
  words[255] = 0x00A5;
  unsigned sum = 0;
  for (const auto w : words) sum += (w & 0xFFU) + (w >> 8);
  words[255] = static_cast<std::uint16_t>(((0x100U - (sum & 0xFFU)) & 0xFFU) << 8 | 0xA5U);
}

Words pata_disk() {
  Words w{};
  w[0] = 0x0040;
  put_string(w, 10, 10, "  WD-WMAM9AB12345");
  put_string(w, 23, 4, "05.01C05");
  put_string(w, 27, 20, "WDC WD800JB-00JJC0");
  w[47] = 0x8010;
  w[49] = 0x0F00;
  w[51] = 0x0200;
  w[53] = 0x0007;
  w[57] = 0xFC10;
  w[58] = 0x00FB;
  w[59] = 0x0110;
  w[60] = 0x0000;
  w[61] = 0x0100;  // 16777216 sectors
  w[63] = 0x0407;  // MDMA0-2, MDMA2 selected
  w[64] = 0x0003;
  w[80] = 0x007E;
  w[81] = 0x001B;
  w[82] = 0x7469;
  w[83] = 0x5E08;  // valid, APM (bit 3), AAM (9), 48-bit (10) supported
  w[85] = 0x7469;
  w[86] = 0x1A00;  // AAM (bit 9) enabled, 48-bit (bit 10) not
  w[88] = 0x003F;
  w[93] = 0x600B;
  w[100] = 0x1234;
  w[101] = 0x0001;
  seal(w);
  return w;
}

}  // namespace

TEST_CASE("decode_identify reads strings high byte first and trims blanks", "[probe]") {
  const auto info = decode_identify(pata_disk(), IdentifySource::raw);
  REQUIRE(info.model == "WDC WD800JB-00JJC0");
  REQUIRE(info.serial == "WD-WMAM9AB12345");
  REQUIRE(info.firmware == "05.01C05");
  Words swapped = pata_disk();
  swapped[27] = 0x4457;  // "DW": the same bytes in the other order
  REQUIRE(decode_identify(swapped, IdentifySource::raw).model.starts_with("DWC WD800JB"));
}

TEST_CASE("decode_identify reports the word-255 checksum as valid, invalid or absent", "[probe]") {
  Words words = pata_disk();
  REQUIRE(identify_checksum(words) == Checksum::valid);
  REQUIRE(decode_identify(words, IdentifySource::raw).checksum == Checksum::valid);
  words[47] = 0x8020;  // changed after sealing
  REQUIRE(identify_checksum(words) == Checksum::invalid);
  const auto invalid = decode_identify(words, IdentifySource::raw);
  REQUIRE(invalid.checksum == Checksum::invalid);
  REQUIRE(invalid.warnings.size() == 1);
  REQUIRE(invalid.warnings[0].find("checksum incorrect") != std::string::npos);
  words[255] = 0x1200;  // no 0xA5 signature
  REQUIRE(identify_checksum(words) == Checksum::absent);
}

TEST_CASE("decode_identify takes the active mode from a one-hot selected field", "[probe]") {
  Words words = pata_disk();
  words[88] = 0x043F;  // UDMA0-5 supported, UDMA2 selected
  auto info = decode_identify(words, IdentifySource::raw);
  REQUIRE(info.udma_modes == std::vector<int>{0, 1, 2, 3, 4, 5});
  REQUIRE(info.udma_active == 2);
  REQUIRE(info.mdma_modes == std::vector<int>{0, 1, 2});
  REQUIRE(info.mdma_active == 2);
  words[88] = 0x0C3F;  // two selected bits: not one-hot
  info = decode_identify(words, IdentifySource::raw);
  REQUIRE_FALSE(info.udma_active);
  REQUIRE(std::any_of(info.warnings.begin(), info.warnings.end(),
                      [](const std::string& w) { return w.find("several modes") != std::string::npos; }));
  words[53] = 0x0003;  // word 88 not valid
  info = decode_identify(words, IdentifySource::raw);
  REQUIRE(info.udma_modes.empty());
  REQUIRE_FALSE(info.udma_active);
}

TEST_CASE("decode_identify derives PIO modes from words 51, 53 and 64", "[probe]") {
  Words words = pata_disk();
  REQUIRE(decode_identify(words, IdentifySource::raw).pio_modes == std::vector<int>{0, 1, 2, 3, 4});
  words[53] = 0x0005;  // words 64-70 not valid: only the legacy modes
  REQUIRE(decode_identify(words, IdentifySource::raw).pio_modes == std::vector<int>{0, 1, 2});
  words[51] = 0x0100;
  REQUIRE(decode_identify(words, IdentifySource::raw).pio_modes == std::vector<int>{0, 1});
  words[51] = 0x0000;
  words[53] = 0x0007;
  words[64] = 0x0001;  // PIO3 implies 0-2 even when word 51 says 0
  REQUIRE(decode_identify(words, IdentifySource::raw).pio_modes == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("decode_identify reports the 80-wire cable only from a valid PATA word 93", "[probe]") {
  Words words = pata_disk();
  REQUIRE(decode_identify(words, IdentifySource::raw).cable_80wire == true);
  words[93] = 0x400B;  // valid, CBLID- below V_IH
  REQUIRE(decode_identify(words, IdentifySource::raw).cable_80wire == false);
  words[93] = 0x0000;  // not reported
  REQUIRE_FALSE(decode_identify(words, IdentifySource::raw).cable_80wire);
  words[93] = 0x600B;
  words[76] = 0x0106;  // SATA: word 93 does not describe a cable
  const auto sata = decode_identify(words, IdentifySource::raw);
  REQUIRE(sata.is_sata);
  REQUIRE_FALSE(sata.cable_80wire);
}

TEST_CASE("decode_identify computes capacity as hdparm's get_lba_capacity", "[probe]") {
  Words words = pata_disk();
  auto info = decode_identify(words, IdentifySource::raw);
  REQUIRE(info.lba48.supported);
  REQUIRE(info.lba48.enabled == false);
  REQUIRE(info.lba_sectors == 16777216);  // 48-bit supported but not enabled: words 60-61
  words[86] = 0x1E00;                     // 48-bit enabled: words 100-103
  info = decode_identify(words, IdentifySource::raw);
  REQUIRE(info.lba_sectors == 0x11234);
  words[49] = 0x0D00;  // no LBA: current CHS capacity, words 57-58
  REQUIRE(decode_identify(words, IdentifySource::raw).lba_sectors == 0x00FBFC10);
  words[49] = 0x0F00;
  words[83] = 0x0408;  // word 83 not valid (15:14 != 01): 48-bit value ignored
  REQUIRE(decode_identify(words, IdentifySource::raw).lba_sectors == 16777216);
}

TEST_CASE("decode_identify reads multiple-sector, capability and feature bits", "[probe]") {
  Words words = pata_disk();
  auto info = decode_identify(words, IdentifySource::live);
  REQUIRE(info.source == IdentifySource::live);
  REQUIRE(info.max_multsect == 16);
  REQUIRE(info.multsect == 16);
  REQUIRE(info.dma_supported);
  REQUIRE(info.lba_supported);
  REQUIRE(info.iordy_supported);
  REQUIRE(info.iordy_can_disable);
  REQUIRE(info.ata_major_versions == std::vector<int>{1, 2, 3, 4, 5, 6});
  REQUIRE(info.ata_minor_version == 0x1B);
  REQUIRE(info.write_cache.supported);
  REQUIRE(info.write_cache.enabled == true);
  REQUIRE(info.look_ahead.enabled == true);
  REQUIRE(info.apm.supported);
  REQUIRE(info.apm.enabled == false);
  REQUIRE(info.aam.enabled == true);
  REQUIRE(info.device_type == DeviceType::ata);
  words[59] = 0x0010;  // bit 8 clear: current setting not valid
  words[47] = 0x800C;  // 12: not a power of two
  info = decode_identify(words, IdentifySource::raw);
  REQUIRE_FALSE(info.multsect);
  REQUIRE(info.warnings.size() == 2);  // MaxMultSect and the now wrong checksum
}

TEST_CASE("decode_identify tells ATA, ATAPI and CFA devices apart", "[probe]") {
  Words words = pata_disk();
  words[0] = 0x85C0;
  REQUIRE(decode_identify(words, IdentifySource::raw).device_type == DeviceType::atapi);
  words[0] = 0x848A;
  REQUIRE(decode_identify(words, IdentifySource::raw).device_type == DeviceType::cfa);
  words[0] = 0x044A;
  words[83] = 0x4004;  // CFA feature set in a valid word 83
  REQUIRE(decode_identify(words, IdentifySource::raw).device_type == DeviceType::cfa);
  REQUIRE(to_string(DeviceType::atapi) == "atapi");
  REQUIRE(to_string(Checksum::absent) == "absent");
  REQUIRE(to_string(IdentifySource::hdparm_I) == "hdparm-I");
}

TEST_CASE("decode_identify_block reads little-endian words and rejects other sizes", "[probe]") {
  const Words words = pata_disk();
  std::array<std::byte, 512> block{};
  for (std::size_t i = 0; i < 256; ++i) {
    block[2 * i] = static_cast<std::byte>(words[i] & 0xFF);
    block[2 * i + 1] = static_cast<std::byte>(words[i] >> 8);
  }
  const auto info = decode_identify_block(block, IdentifySource::live);
  REQUIRE(info);
  REQUIRE(info->model == "WDC WD800JB-00JJC0");
  REQUIRE(info->checksum == Checksum::valid);
  const auto short_block = decode_identify_block(std::span(block).first(510), IdentifySource::live);
  REQUIRE_FALSE(short_block);
  REQUIRE(short_block.error().code == std::errc::invalid_argument);
  REQUIRE(short_block.error().op.find("510") != std::string::npos);
}
