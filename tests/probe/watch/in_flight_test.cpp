// SPDX-License-Identifier: GPL-2.0-or-later
// reads_in_flight / reads_stuck_in_flight over a /sys/block tree the test writes, so each count
// is known: the kernel's own files change under a busy device and could only be shape-checked.
#include "probe/watch/in_flight.hpp"

#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace disktune;

namespace {

// /sys/block/<name>/inflight as the kernel prints it (part_inflight_show: "%8u %8u\n").
void write_inflight(const std::string& sys_block, const std::string& name, const std::string& text) {
  std::filesystem::create_directories(sys_block + "/" + name);
  std::ofstream(sys_block + "/" + name + "/inflight") << text;
}

}  // namespace

TEST_CASE("reads_in_flight: the first field of /sys/block/NAME/inflight, not the writes", "[probe]") {
  const testing::TempDir sys("inflight");
  write_inflight(sys.path(), "sdb", "       3        7\n");
  write_inflight(sys.path(), "loop0", "       0       12\n");
  REQUIRE(probe::reads_in_flight("sdb", sys.path()) == 3);
  REQUIRE(probe::reads_in_flight("loop0", sys.path()) == 0);
}

TEST_CASE("reads_in_flight: no count from a missing or unreadable file", "[probe]") {
  const testing::TempDir sys("inflight");
  write_inflight(sys.path(), "sdc", "garbage\n");
  write_inflight(sys.path(), "sdd", "");
  REQUIRE_FALSE(probe::reads_in_flight("sdc", sys.path()).has_value());
  REQUIRE_FALSE(probe::reads_in_flight("sdd", sys.path()).has_value());
  REQUIRE_FALSE(probe::reads_in_flight("no-such-disk", sys.path()).has_value());
  REQUIRE(probe::reads_stuck_in_flight("no-such-disk", probe::Seconds{1.0}, sys.path()) == 0);
}

TEST_CASE("reads_stuck_in_flight: a count that never drains is returned after the grace", "[probe]") {
  const testing::TempDir sys("inflight");
  write_inflight(sys.path(), "sdb", "       2        0\n");
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(probe::reads_stuck_in_flight("sdb", probe::Seconds{0.2}, sys.path()) == 2);
  REQUIRE(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(200));
}

TEST_CASE("reads_stuck_in_flight: reads that drain end the wait early with 0", "[probe]") {
  const testing::TempDir sys("inflight");
  write_inflight(sys.path(), "sdb", "       4        0\n");
  const auto start = std::chrono::steady_clock::now();
  std::thread drain([&sys] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    // Renamed over the old file: a reader never sees it half written.
    std::ofstream(sys.path() + "/next") << "       0        0\n";
    std::filesystem::rename(sys.path() + "/next", sys.path() + "/sdb/inflight");
  });
  const long stuck = probe::reads_stuck_in_flight("sdb", probe::Seconds{30.0}, sys.path());
  drain.join();
  REQUIRE(stuck == 0);
  REQUIRE(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
}
