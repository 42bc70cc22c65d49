// SPDX-License-Identifier: GPL-2.0-or-later
// reads_in_flight / reads_stuck_in_flight against this machine's /sys/block.
#include "probe/watch/in_flight.hpp"

#include "tests/support/skip.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace disktune;

TEST_CASE("reads_in_flight: a missing device has no count, and nothing counts as stuck", "[probe]") {
  REQUIRE_FALSE(probe::reads_in_flight("no-such-disk-disktune").has_value());
  REQUIRE(probe::reads_stuck_in_flight("no-such-disk-disktune", probe::Seconds{1.0}) == 0);
}

TEST_CASE("reads_in_flight: the first field of /sys/block/NAME/inflight", "[probe]") {
  for (const auto& entry : std::filesystem::directory_iterator("/sys/block")) {
    const std::string name = entry.path().filename().string();
    std::ifstream file(entry.path() / "inflight");
    long reads = -1;
    long writes = -1;
    if (!(file >> reads >> writes)) continue;
    // An idle device reads "0 0"; a busy one may change between the two reads, so only the
    // shape is compared: both parse, both are counts.
    const auto parsed = probe::reads_in_flight(name);
    REQUIRE(parsed.has_value());
    REQUIRE(*parsed >= 0);
    return;
  }
  disktune::testing::skip_test("no /sys/block entry with an inflight file");
}
