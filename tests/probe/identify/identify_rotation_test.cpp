// SPDX-License-Identifier: GPL-2.0-or-later
// Rotation rate (word 217) and NCQ queue depth (words 75/76), from raw words and hdparm -I text.
#include "probe/identify/identify.hpp"
#include "probe/identify/identify_text.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace disktune::probe;

namespace {

IdentifyInfo decoded(std::uint16_t w75, std::uint16_t w76, std::uint16_t w217) {
  std::array<std::uint16_t, 256> words{};
  words[75] = w75;
  words[76] = w76;
  words[217] = w217;
  return decode_identify(words, IdentifySource::raw);
}

IdentifyInfo corpus_file(const char* name) {
  auto info = parse_identify_file(
      (std::filesystem::path(DISKTUNE_TEST_DATA) / "identify" / name).string());
  REQUIRE(info.has_value());
  return *info;
}

}  // namespace

TEST_CASE("decode_identify reads word 217's rotation rate and the NCQ depth", "[probe]") {
  CHECK(decoded(0, 0, 7200).rotation_rate == 7200);
  CHECK(decoded(0, 0, 1).rotation_rate == 1);          // non-rotating
  CHECK_FALSE(decoded(0, 0, 0).rotation_rate);         // not reported
  CHECK_FALSE(decoded(0, 0, 0xFFFF).rotation_rate);
  CHECK_FALSE(decoded(0, 0, 0x0400).rotation_rate);    // reserved
  CHECK(decoded(31, 0x0106, 0).queue_depth == 32);     // word 76 bit 8: NCQ
  CHECK_FALSE(decoded(31, 0x0006, 0).queue_depth);     // SATA without NCQ
  CHECK_FALSE(decoded(31, 0xFFFF, 0).queue_depth);     // word 76 not reported
}

TEST_CASE("hdparm -I text gives the rotation rate and a SATA drive's queue depth", "[probe]") {
  const IdentifyInfo ssd = corpus_file("hdparm-I_crucial-ct512m550ssd3-msata_partial-by-author.txt");
  CHECK(ssd.rotation_rate == 1);  // "Solid State Device"
  CHECK(ssd.queue_depth == 32);
  CHECK(corpus_file("hdparm-I_toshiba-mg09aca18te-18tb_partial.txt").rotation_rate == 7200);
  // A parallel drive's word 75 (legacy TCQ) is no queue the simulated host uses.
  const IdentifyInfo pata = corpus_file("hdparm-I_ibm-dtta-371440_old-format-hdparm4.txt");
  CHECK_FALSE(pata.queue_depth);
  CHECK_FALSE(pata.rotation_rate);
}
