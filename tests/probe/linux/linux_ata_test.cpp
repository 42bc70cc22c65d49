// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for the HDIO_GET_IDENTITY byte-order conversion.
#include "probe/linux/linux_ata.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace disktune::probe;

TEST_CASE("hdio_identity_to_ata_order swaps only the string words to ATA order", "[probe]") {
  std::array<std::byte, 512> block{};
  // Natural order, as HDIO_GET_IDENTITY returns it: serial at word 10, firmware at 23, model at 27.
  std::memcpy(&block[20], "SN1234", 6);
  std::memcpy(&block[46], "FW01", 4);
  std::memcpy(&block[54], "QEMU HARDDISK", 13);
  block[2 * 47] = std::byte{0x10};  // word 47 = 0x8010 (MaxMultSect 16): not a string
  block[2 * 47 + 1] = std::byte{0x80};
  hdio_identity_to_ata_order(block);

  const auto word = [&block](std::size_t n) {
    return static_cast<unsigned>(block[2 * n]) | static_cast<unsigned>(block[2 * n + 1]) << 8;
  };
  REQUIRE(word(10) == ('S' << 8 | 'N'));
  REQUIRE(word(23) == ('F' << 8 | 'W'));
  REQUIRE(word(27) == ('Q' << 8 | 'E'));
  REQUIRE(word(33) == ('K' << 8 | 0));  // the 13th character, padding in the low byte
  REQUIRE(word(47) == 0x8010);
  hdio_identity_to_ata_order(block);
  REQUIRE(std::memcmp(&block[54], "QEMU HARDDISK", 13) == 0);
}
