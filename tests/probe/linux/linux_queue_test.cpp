// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for the value ladders of the block-layer queue settings.
#include "probe/linux/linux_queue.hpp"

#include <catch2/catch.hpp>

using namespace disktune::probe;

TEST_CASE("power_ladder lists the powers of two in range plus the current value", "[probe]") {
  REQUIRE(power_ladder(4, 64, 128) == std::vector<std::int64_t>{4, 8, 16, 32, 64, 128});
  REQUIRE(power_ladder(4, 1280, 1280) ==
          std::vector<std::int64_t>{4, 8, 16, 32, 64, 128, 256, 512, 1024, 1280});
  REQUIRE(power_ladder(3, 20, 8) == std::vector<std::int64_t>{4, 8, 16});
  REQUIRE(power_ladder(4, 2, 3) == std::vector<std::int64_t>{3});
}

TEST_CASE("max_sectors_ladder ends at max_hw_sectors_kb and keeps the current value", "[probe]") {
  // A loop device: max_hw_sectors_kb 1280, found at 128 (a bad start): 1280 is a value.
  CHECK(max_sectors_ladder(4, 1280, 128) == std::vector<std::int64_t>{4, 8, 16, 32, 64, 128, 256, 512, 1024, 1280});
  CHECK(max_sectors_ladder(4, 1024, 1024).back() == 1024);
  CHECK(max_sectors_ladder(4, 1024, 1024).size() == 9);
  CHECK(max_sectors_ladder(4, 32767, 2000) ==
        std::vector<std::int64_t>{4, 8, 16, 32, 64, 128, 256, 512, 1024, 2000, 2048, 4096, 8192, 16384, 32767});
}

TEST_CASE("read_ahead_ladder runs from 0 to 8192 KiB and keeps the current value", "[probe]") {
  REQUIRE(read_ahead_ladder(128) ==
          std::vector<std::int64_t>{0, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192});
  const auto odd = read_ahead_ladder(2560);
  REQUIRE(odd.size() == 12);
  REQUIRE(odd[8] == 2048);
  REQUIRE(odd[9] == 2560);
  REQUIRE(read_ahead_ladder(0).front() == 0);
  REQUIRE(read_ahead_ladder(0).size() == 11);
}

// mq-deadline keeps read_expire in jiffies (msecs_to_jiffies): a value that is no whole
// number of ticks reads back rounded (125 ms read back 128 at HZ=250, so every such trial
// was "unstable"). Every value searched must be whole ticks at each HZ Linux builds with.
TEST_CASE("tunable_ladder's read_expire values are whole jiffies at HZ 100, 250, 300 and 1000", "[probe]") {
  for (const auto ms : tunable_ladder(SettingId::read_expire, std::nullopt))
    for (const std::int64_t hz : {100, 250, 300, 1000}) {
      CAPTURE(ms, hz);
      REQUIRE(ms * hz % 1000 == 0);
    }
}
