// SPDX-License-Identifier: GPL-2.0-or-later
// End-to-end tests of make_sim_device: the compiled-in seed ("sim:") and identify files ("sim:FILE").
#include "probe/identify/identify_text.hpp"
#include "probe/sim/seed_drive.hpp"
#include "probe/sim/sim_device.hpp"
#include "tests/support/sim_fixture.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace disktune;
using namespace disktune::probe;

namespace {

const std::string kIdentifyDir = std::string(DISKTUNE_TEST_DATA) + "/identify";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("the compiled-in seed text is the shared seed file, byte for byte", "[probe]") {
  CHECK(seed_identify_text() == read_text(kIdentifyDir + "/seed_ibm-djna-352500.hdparm-i.txt"));
}

TEST_CASE("sim: is the seed drive, needing no file at run time", "[probe]") {
  auto device = make_sim_device(std::nullopt, DeviceOptions{});
  REQUIRE(device);
  CHECK((*device)->path() == "sim:");
  auto info = (*device)->identify();
  REQUIRE(info.has_value());
  CHECK(info->model == "IBM-DJNA-352500");
  CHECK(info->lba_sectors == 49981680u);
  CHECK(info->max_multsect == 16);
  auto now = (*device)->snapshot();
  REQUIRE(now.has_value());
  CHECK(format_settings(*now) ==
        "multcount=0 io_support=0 unmaskirq=0 using_dma=0 xfermode=udma2 readahead=8");
  auto io = (*device)->open_io(IoMode::buffered);
  REQUIRE(io);
  CHECK(testing::buffered_mib_s(**io) == Approx(3.83).epsilon(0.10));
  testing::apply_all(**device, testing::settings_of({{"multcount", "16"}, {"io_support", "3"},
                                                     {"unmaskirq", "1"}, {"using_dma", "1"},
                                                     {"xfermode", "66"}}));
  CHECK(testing::buffered_mib_s(**io) == Approx(14.85).epsilon(0.10));
}

TEST_CASE("sim: errors name a bad profile file", "[probe]") {
  DeviceOptions options;
  options.sim_profile = std::string(DISKTUNE_TEST_DATA) + "/sim/no-such-profile.json";
  auto device = make_sim_device(std::nullopt, options);
  REQUIRE_FALSE(device);
  CHECK(device.error().path == *options.sim_profile);
}

TEST_CASE("sim:FILE runs every shared identify capture that has modes and a capacity", "[probe]") {
  int simulated = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kIdentifyDir)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".txt") continue;
    const std::string file = entry.path().string();
    if (!parse_identify_file(file)) continue;  // captures the parser cannot read
    auto device = make_sim_device(file, DeviceOptions{});
    if (!device) {
      CHECK(device.error().code == std::make_error_code(std::errc::invalid_argument));
      continue;
    }
    INFO(file);
    ++simulated;
    CHECK((*device)->path() == "sim:" + file);
    auto start = (*device)->snapshot();
    REQUIRE(start.has_value());
    CHECK((*device)->restore(*start));  // the default state is legal for the drive
    auto io = (*device)->open_io(IoMode::buffered);
    REQUIRE(io);
    const double rate = testing::buffered_mib_s(**io, 0.5);
    CHECK(rate > 0.2);
    CHECK(rate < 70.0);
  }
  CHECK(simulated >= 10);
}
