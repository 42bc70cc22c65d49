// SPDX-License-Identifier: GPL-2.0-or-later
// Watchdog hooks: a stop request kills the child at once; outside progress is not a stall.
#include "probe/watch/watchdog.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

using namespace disktune;
using probe::ChildEnd;
using probe::Heartbeat;
using probe::WatchHooks;
using probe::WatchLimits;

namespace {

WatchLimits limits(double timeout_s, std::optional<double> stall_s) {
  WatchLimits result;
  result.timeout = probe::Seconds(timeout_s);
  if (stall_s) result.stall = probe::Seconds(*stall_s);
  return result;
}

std::string sleep_silently(Heartbeat&) {
  std::this_thread::sleep_for(std::chrono::seconds(60));
  return "done";
}

}  // namespace

TEST_CASE("a stop request kills a watched child at once and ends it stopped", "[probe]") {
  int polls = 0;
  WatchHooks hooks;
  hooks.stop_now = [&polls] { return ++polls > 20; };  // after about 200 ms
  const auto outcome = probe::run_in_child(sleep_silently, limits(60.0, std::nullopt), hooks);
  REQUIRE(outcome.end == ChildEnd::stopped);
  REQUIRE(outcome.detail.find("stopped") != std::string::npos);
  REQUIRE(outcome.elapsed < probe::Seconds(30.0));  // not the 60 s timeout nor the child's sleep
}

TEST_CASE("a growing progress counter keeps a silent child from counting as stalled", "[probe]") {
  std::uint64_t sectors = 0;
  WatchHooks hooks;
  hooks.progress = [&sectors] { return std::optional<std::uint64_t>(sectors += 4096); };
  const auto outcome = probe::run_in_child(
      [](Heartbeat&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        return std::string("done");
      },
      limits(30.0, 0.6), hooks);
  REQUIRE(outcome.end == ChildEnd::finished);
  REQUIRE(outcome.payload == "done");
  REQUIRE(outcome.progress > 0);
  REQUIRE_FALSE(outcome.stalled);
}

TEST_CASE("a counter that stops growing is a stall, and the time since progress is kept", "[probe]") {
  WatchHooks hooks;
  hooks.progress = [] { return std::optional<std::uint64_t>(7); };
  const auto outcome = probe::run_in_child(sleep_silently, limits(30.0, 0.5), hooks);
  REQUIRE(outcome.end == ChildEnd::timed_out);
  REQUIRE(outcome.stalled);
  REQUIRE(outcome.progress == 0);
  REQUIRE(outcome.since_progress >= probe::Seconds(0.5));
}
