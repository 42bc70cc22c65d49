// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for the identify text parsers: the seed, format detection, and bad input.
#include "probe/identify/identify_text.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

using namespace disktune::probe;

namespace {

const std::string corpus = std::string(DISKTUNE_TEST_DATA) + "/identify/";

// `count` words of "0000", eight per line, after a shell prompt line.
std::string raw_text(int count) {
  std::string text = "# cat /proc/ide/hda/identify\n";
  for (int i = 0; i < count; ++i) text += (i % 8 == 7 || i + 1 == count) ? "0040\n" : "0040 ";
  return text;
}

bool has_warning(const IdentifyInfo& info, std::string_view text) {
  return std::any_of(info.warnings.begin(), info.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("the seed's old hdparm -i layout gives the tuning facts", "[probe]") {
  const auto info = parse_identify_file(corpus + "seed_ibm-djna-352500.hdparm-i.txt");
  REQUIRE(info);
  CHECK(info->source == IdentifySource::hdparm_i);
  CHECK(info->model == "IBM-DJNA-352500");
  CHECK(info->firmware == "J51OA30K");
  CHECK(info->serial == "GW0GWF05809");
  CHECK(info->max_multsect == 16);
  CHECK(info->multsect == 16);
  CHECK(info->pio_modes == std::vector<int>{0, 1, 2, 3, 4});  // OldPIO=2 plus "mode3 mode4"
  CHECK(info->mdma_modes == std::vector<int>{0, 1, 2});       // "mword0 mword1 mword2"
  CHECK_FALSE(info->mdma_active);
  CHECK(info->udma_modes == std::vector<int>{0, 1, 2, 3, 4});  // "mode0 mode1 *mode2 ..."
  CHECK(info->udma_active == 2);
  CHECK(info->lba_sectors == 49981680);
  CHECK(info->dma_supported);
  CHECK(info->lba_supported);
  CHECK(info->iordy_supported);
  CHECK(info->iordy_can_disable);
  CHECK(info->ata_major_versions == std::vector<int>{1, 2, 3, 4});
  CHECK_FALSE(info->cable_80wire);
  CHECK(info->checksum == Checksum::unknown);
  CHECK(info->device_type == DeviceType::ata);
  CHECK(info->warnings.empty());
  CHECK_FALSE(info->words);
  CHECK(identify_summary(*info) ==
        "IBM-DJNA-352500 fw J51OA30K (ata, hdparm-i): MaxMultSect 16, MultSect 16, PIO 0-4, "
        "MDMA 0-2, UDMA 0-4 (active udma2), LBA 49981680 sectors");
}

TEST_CASE("hdparm -I cable lines map to true, false and not reported", "[probe]") {
  const std::string head = "ATA device, with non-removable media\n\tModel Number:       X\n";
  const auto above = parse_identify_text(head + "HW reset results:\n\tCBLID- above Vih\n", IdentifyFormat::hdparm_I, "t");
  const auto below = parse_identify_text(head + "HW reset results:\n\tDevice num = 0\n", IdentifyFormat::hdparm_I, "t");
  const auto absent = parse_identify_text(head, IdentifyFormat::hdparm_I, "t");
  REQUIRE(above);
  REQUIRE(below);
  REQUIRE(absent);
  CHECK(above->cable_80wire == true);
  CHECK(below->cable_80wire == false);
  CHECK_FALSE(absent->cable_80wire);
}

TEST_CASE("detect_identify_format and identify_format_from_name recognise the three formats", "[probe]") {
  CHECK(detect_identify_format(raw_text(256)) == IdentifyFormat::raw);
  CHECK(detect_identify_format(" Model=X, FwRev=1, SerialNo=2\n") == IdentifyFormat::hdparm_i);
  CHECK(detect_identify_format("\tModel Number:       X\n") == IdentifyFormat::hdparm_I);
  CHECK_FALSE(detect_identify_format("hello\n"));
  CHECK(identify_format_from_name("hdparm-I") == IdentifyFormat::hdparm_I);
  CHECK(identify_format_from_name("raw") == IdentifyFormat::raw);
  CHECK_FALSE(identify_format_from_name("hdparm-x"));
}

TEST_CASE("raw words follow hdparm --Istdin: a header is skipped, a short dump is an error", "[probe]") {
  const auto full = parse_identify_text(raw_text(256), "full.txt");
  REQUIRE(full);
  CHECK(full->source == IdentifySource::raw);
  CHECK(full->words.has_value());
  const auto truncated = parse_identify_text(raw_text(200), "short.txt");
  REQUIRE_FALSE(truncated);
  CHECK(truncated.error().path == "short.txt");
  CHECK(truncated.error().op == "line 27: only 200 of 256 identify words (hdparm --Istdin rules: four hex digits per word)");
  CHECK(truncated.error().code == std::errc::invalid_argument);
}

TEST_CASE("bad input gives an error or warnings, never a crash", "[probe]") {
  SECTION("empty") {
    const auto r = parse_identify_text("", "empty.txt");
    REQUIRE_FALSE(r);
    CHECK(r.error().op.find("no identify data") != std::string::npos);
    for (const auto format : {IdentifyFormat::raw, IdentifyFormat::hdparm_i, IdentifyFormat::hdparm_I}) {
      CHECK_FALSE(parse_identify_text("", format, "empty.txt"));
    }
  }
  SECTION("binary garbage in every format") {
    std::mt19937 random(42);
    std::string garbage(64 * 1024, '\0');
    for (auto& c : garbage) c = static_cast<char>(random() & 0xFF);
    (void)parse_identify_text(garbage, "garbage.bin");
    for (const auto format : {IdentifyFormat::raw, IdentifyFormat::hdparm_i, IdentifyFormat::hdparm_I}) {
      (void)parse_identify_text(garbage, format, "garbage.bin");
    }
    CHECK_FALSE(parse_identify_text(garbage, IdentifyFormat::hdparm_I, "garbage.bin"));
  }
  SECTION("oversized input is refused before parsing") {
    const std::string big(2 * 1024 * 1024, 'a');
    const auto r = parse_identify_text(big, "big.txt");
    REQUIRE_FALSE(r);
    CHECK(r.error().op.find("input too large") != std::string::npos);
  }
  SECTION("a huge line is cut with a warning") {
    const std::string text = " Model=X, FwRev=1, SerialNo=2\n MaxMultSect=16, " + std::string(100000, 'z') + "\n";
    const auto r = parse_identify_text(text, IdentifyFormat::hdparm_i, "long.txt");
    REQUIRE(r);
    CHECK(r->max_multsect == 16);
    CHECK(has_warning(*r, "line 2: line of 100017 bytes cut to 4096"));
  }
  SECTION("non-UTF-8 bytes in strings become '?' with a warning, in every source") {
    std::array<std::uint16_t, 256> words{};
    words[27] = 0xE94D;  // "\xe9M"
    const auto decoded = decode_identify(words, IdentifySource::raw);
    CHECK(decoded.model == "?M");
    CHECK(has_warning(decoded, "non-printable"));
    const auto short_form = parse_identify_text(" Model=Caf\xe9, FwRev=1\xff\n", IdentifyFormat::hdparm_i, "l1.txt");
    REQUIRE(short_form);
    CHECK(short_form->model == "Caf?");
    CHECK(short_form->firmware == "1?");
    CHECK(short_form->warnings.size() == 2);
    const auto report = parse_identify_text("ATA device\n\tModel Number:  Caf\xc3\xa9 \n", IdentifyFormat::hdparm_I, "l2.txt");
    REQUIRE(report);
    CHECK(report->model == "Caf??");
  }
  SECTION("hdparm -i without a Model= line") {
    const auto r = parse_identify_text(" MaxMultSect=16\n", IdentifyFormat::hdparm_i, "nomodel.txt");
    REQUIRE_FALSE(r);
    CHECK(r.error().op.find("no 'Model=' line") != std::string::npos);
  }
  SECTION("a missing file is a read error with errno") {
    const auto r = parse_identify_file(corpus + "does-not-exist.txt");
    REQUIRE_FALSE(r);
    CHECK(r.error().code == std::errc::no_such_file_or_directory);
    CHECK(r.error().op == "read");
  }
}
