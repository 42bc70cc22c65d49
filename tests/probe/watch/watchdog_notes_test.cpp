// SPDX-License-Identifier: GPL-2.0-or-later
// Watchdog notes: lines a watched child sends reach the parent's hook whole and in order.
#include "probe/watch/watchdog.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace disktune;
using probe::ChildEnd;
using probe::Heartbeat;

TEST_CASE("a watched child's notes reach the parent whole, in order, as lines", "[probe]") {
  std::vector<std::string> seen;
  probe::WatchHooks hooks;
  hooks.on_note = [&seen](std::string_view line) { seen.emplace_back(line); };
  const auto outcome = probe::run_in_child(
      [](Heartbeat& heartbeat) {
        for (int i = 1; i <= 50; ++i) heartbeat.note("unit " + std::to_string(i) + " of 50: 51.40 MB/s");
        heartbeat.note("two\nlines");
        return std::string("done");
      },
      probe::WatchLimits{probe::Seconds(30.0), std::nullopt}, hooks);
  REQUIRE(outcome.end == ChildEnd::finished);
  REQUIRE(outcome.payload == "done");
  REQUIRE(seen.size() == 52);
  for (int i = 1; i <= 50; ++i) REQUIRE(seen[static_cast<std::size_t>(i - 1)] == "unit " + std::to_string(i) + " of 50: 51.40 MB/s");
  REQUIRE(seen[50] == "two");
  REQUIRE(seen[51] == "lines");
}

TEST_CASE("a Heartbeat outside a watchdog hands its notes to its sink", "[probe]") {
  std::vector<std::string> seen;
  Heartbeat heartbeat([&seen](std::string_view line) { seen.emplace_back(line); });
  heartbeat.note("a");
  heartbeat.note("b\n");
  REQUIRE(seen == std::vector<std::string>{"a", "b"});
  Heartbeat silent;
  silent.note("nowhere");  // no sink, no pipe: nothing happens
}
