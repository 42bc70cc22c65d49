// SPDX-License-Identifier: GPL-2.0-or-later
// Watchdog heartbeats: a stall is killed before the timeout, a beating child is not; stdio detach.
#include "probe/watch/heartbeat_block_io.hpp"
#include "probe/watch/process_state.hpp"
#include "probe/watch/watchdog.hpp"
#include "tests/support/fake_block_io.hpp"

#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace disktune;
using namespace std::chrono_literals;
using probe::ChildEnd;
using probe::Heartbeat;
using probe::run_in_child;
using probe::WatchLimits;

namespace {

WatchLimits limits(probe::Seconds timeout, std::optional<probe::Seconds> stall) {
  WatchLimits result;
  result.timeout = timeout;
  result.stall = stall;
  return result;
}

}  // namespace

TEST_CASE("a child that stops beating is killed as stalled long before the timeout", "[probe]") {
  const auto outcome = run_in_child(
      [](Heartbeat& heartbeat) -> std::string {
        for (int i = 0; i < 5; ++i) {
          heartbeat.beat();
          std::this_thread::sleep_for(20ms);
        }
        for (;;) ::pause();
      },
      limits(probe::Seconds{30.0}, probe::Seconds{0.5}));
  REQUIRE(outcome.end == ChildEnd::timed_out);
  REQUIRE(outcome.stalled);
  REQUIRE(outcome.signal == SIGKILL);
  REQUIRE(outcome.detail == "stalled: no progress for 0.5 s (killed)");
  REQUIRE(outcome.heartbeats == 5);  // 20 ms apart: none dropped by the 10 ms rate limit
  REQUIRE(outcome.elapsed >= 0.57s);  // last beat >= 80 ms in, then 0.5 s of silence
  REQUIRE(outcome.elapsed < 5s);
}

TEST_CASE("a child that keeps beating outlives the stall limit", "[probe]") {
  const auto outcome = run_in_child(
      [](Heartbeat& heartbeat) {
        for (int i = 0; i < 40; ++i) {  // 0.8 s in all, 4 x the stall limit
          heartbeat.beat();
          std::this_thread::sleep_for(20ms);
        }
        return std::string("done");
      },
      limits(probe::Seconds{30.0}, probe::Seconds{0.2}));
  REQUIRE(outcome.end == ChildEnd::finished);
  REQUIRE_FALSE(outcome.stalled);
  REQUIRE(outcome.payload == "done");
  REQUIRE(outcome.heartbeats == 40);
  REQUIRE(outcome.pid > 0);
}

TEST_CASE("without a stall limit only the overall timeout kills a silent child", "[probe]") {
  const auto outcome = run_in_child([](Heartbeat&) -> std::string { for (;;) ::pause(); },
                                    limits(probe::Seconds{0.4}, std::nullopt));
  REQUIRE(outcome.end == ChildEnd::timed_out);
  REQUIRE_FALSE(outcome.stalled);
  REQUIRE(outcome.detail == "timed out after 0.4 s (killed)");
  REQUIRE(outcome.heartbeats == 0);
}

TEST_CASE("heartbeats are rate-limited to one write per 10 ms", "[probe]") {
  const auto outcome = run_in_child(
      [](Heartbeat& heartbeat) {
        for (int i = 0; i < 100000; ++i) heartbeat.beat();  // well under 10 ms per 1000
        return std::string();
      },
      limits(probe::Seconds{30.0}, probe::Seconds{5.0}));
  REQUIRE(outcome.end == ChildEnd::finished);
  REQUIRE(outcome.heartbeats >= 1);
  REQUIRE(outcome.heartbeats < 1000);
}

TEST_CASE("a default Heartbeat does nothing", "[probe]") {
  Heartbeat idle;
  errno = 0;
  idle.beat();  // fd -1: no write (a write(-1) would set errno to EBADF), no crash
  REQUIRE(errno == 0);
}

TEST_CASE("detach_stdio points the child's stdout and stderr at /dev/null", "[probe]") {
  auto quiet = limits(probe::Seconds{10.0}, std::nullopt);
  quiet.detach_stdio = true;
  const auto outcome = run_in_child(
      [](Heartbeat&) {
        char target[256] = {};
        const ssize_t n = ::readlink("/proc/self/fd/2", target, sizeof target - 1);
        return n > 0 ? std::string(target, static_cast<std::size_t>(n)) : std::string("?");
      },
      quiet);
  REQUIRE(outcome.end == ChildEnd::finished);
  REQUIRE(outcome.payload == "/dev/null");
}

TEST_CASE("stall_limit_for is 20 beat intervals within [floor, timeout]", "[probe]") {
  REQUIRE(probe::stall_limit_for(probe::Seconds{0.01}, probe::Seconds{60.0}).count() == Approx(5.0));
  REQUIRE(probe::stall_limit_for(probe::Seconds{0.5}, probe::Seconds{60.0}).count() == Approx(10.0));
  REQUIRE(probe::stall_limit_for(probe::Seconds{5.0}, probe::Seconds{60.0}).count() == Approx(60.0));
  REQUIRE(probe::stall_limit_for(probe::Seconds{0.01}, probe::Seconds{3.0}).count() == Approx(3.0));
}

TEST_CASE("process_state reads the state letter from /proc/PID/stat", "[probe]") {
  REQUIRE(probe::process_state(::getpid()) == 'R');
  const pid_t child = ::fork();
  if (child == 0) {
    for (;;) ::pause();
  }
  REQUIRE(child > 0);
  char state = '?';
  for (int i = 0; i < 100 && state != 'S'; ++i) {
    std::this_thread::sleep_for(10ms);
    state = probe::process_state(child);
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  REQUIRE(state == 'S');
  REQUIRE(probe::process_state(child) == '?');  // reaped: no /proc entry
}

TEST_CASE("to_string names every ChildEnd", "[probe]") {
  REQUIRE(probe::to_string(ChildEnd::finished) == "finished");
  REQUIRE(probe::to_string(ChildEnd::failed) == "failed");
  REQUIRE(probe::to_string(ChildEnd::timed_out) == "timed_out");
  REQUIRE(probe::to_string(ChildEnd::wedged) == "wedged");
  REQUIRE(probe::to_string(ChildEnd::stopped) == "stopped");
}

TEST_CASE("HeartbeatBlockIo forwards reads and flushes and beats after each", "[probe]") {
  const auto outcome = run_in_child(
      [](Heartbeat& heartbeat) {
        testing::FakeBlockIo fake(testing::FakeBlockIoConfig{});
        probe::HeartbeatBlockIo io(fake, heartbeat);
        std::vector<std::byte> buffer(4096);
        std::string report = std::to_string(io.size_bytes());
        for (std::uint64_t i = 0; i < 4; ++i) {
          std::this_thread::sleep_for(20ms);
          if (!io.read_at(i * 8192 + 1, buffer)) return std::string("read failed");
          report += buffer[0] == testing::fake_pattern_byte(i * 8192 + 1) ? " ok" : " bad";
        }
        std::this_thread::sleep_for(20ms);
        report += io.flush_cache() ? " flushed" : " flush failed";
        report += " " + std::to_string(fake.events().size());
        return report;
      },
      limits(probe::Seconds{30.0}, probe::Seconds{5.0}));
  REQUIRE(outcome.end == ChildEnd::finished);
  REQUIRE(outcome.payload == std::to_string(64u << 20) + " ok ok ok ok flushed 5");
  REQUIRE(outcome.heartbeats == 5);
}

TEST_CASE("process_wchan names where a sleeping process waits", "[probe]") {
  const pid_t child = ::fork();
  if (child == 0) {
    for (;;) ::pause();
  }
  REQUIRE(child > 0);
  std::string wchan;
  for (int i = 0; i < 100 && wchan.empty(); ++i) {
    std::this_thread::sleep_for(10ms);
    if (probe::process_state(child) == 'S') wchan = probe::process_wchan(child);
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  INFO("wchan of a process in pause(): " << wchan);
  REQUIRE_FALSE(wchan.empty());  // e.g. "do_sys_pause" (kernel-version dependent)
  REQUIRE(probe::process_wchan(child).empty());  // reaped
}
