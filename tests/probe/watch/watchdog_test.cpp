// SPDX-License-Identifier: GPL-2.0-or-later
// Watchdog: payloads, crashes, exceptions, hangs, leftover grandchildren and fd hygiene.
#include "probe/watch/watchdog.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace disktune;
using probe::ChildEnd;
using probe::run_in_child;

namespace {

using namespace std::chrono_literals;

// One pid_t in MAP_SHARED memory: a child writes it, the test reads it after fork.
class SharedPid {
 public:
  SharedPid() {
    void* memory = ::mmap(nullptr, sizeof(pid_t), PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    REQUIRE(memory != MAP_FAILED);
    value_ = static_cast<volatile pid_t*>(memory);
    *value_ = 0;
  }
  SharedPid(const SharedPid&) = delete;
  SharedPid& operator=(const SharedPid&) = delete;
  ~SharedPid() { ::munmap(const_cast<pid_t*>(value_), sizeof(pid_t)); }
  void set(pid_t pid) { *value_ = pid; }
  [[nodiscard]] pid_t get() const { return *value_; }

 private:
  volatile pid_t* value_ = nullptr;
};

// Forks a process that sleeps until killed and returns its pid (call in the watched child).
pid_t fork_sleeper() {
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (;;) ::pause();
  }
  return pid;
}

// Gone = no /proc entry, or a zombie waiting for a reaper that is not the test.
bool process_gone(pid_t pid, std::chrono::seconds wait) {
  const auto give_up = std::chrono::steady_clock::now() + wait;
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  do {
    std::ifstream stat(path);
    std::string line;
    if (!std::getline(stat, line)) return true;
    const char state = line.at(line.rfind(')') + 2);
    if (state == 'Z' || state == 'X') return true;
    std::this_thread::sleep_for(20ms);
  } while (std::chrono::steady_clock::now() < give_up);
  return false;
}

// SIGKILLs the recorded process at scope exit if it still runs, so a failing test does not
// leave a sleeper holding the test runner's output pipe open.
class KillIfAlive {
 public:
  explicit KillIfAlive(const SharedPid& pid) : pid_(pid) {}
  KillIfAlive(const KillIfAlive&) = delete;
  KillIfAlive& operator=(const KillIfAlive&) = delete;
  ~KillIfAlive() {
    if (pid_.get() > 0 && !process_gone(pid_.get(), 0s)) ::kill(pid_.get(), SIGKILL);
  }

 private:
  const SharedPid& pid_;
};

std::size_t open_fd_count() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    ++count;
  }
  return count;
}

// Catch2 handles SIGABRT itself and would report a fatal error from inside the child;
// restore the default action, and skip the core dump.
[[noreturn]] void plain_abort() {
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  std::signal(SIGABRT, SIG_DFL);
  std::abort();
}

}  // namespace

TEST_CASE("a child that returns hands its payload to the parent", "[probe]") {
  const std::size_t size = GENERATE(std::size_t{5}, std::size_t{1} << 20);
  std::string expected(size, '\0');
  for (std::size_t i = 0; i < size; ++i) expected[i] = static_cast<char>('a' + (i * 7) % 26);

  // 1 MiB is 16 times a pipe's buffer: the parent must read while the child writes.
  const auto outcome = run_in_child([&] { return expected; }, 10s);
  REQUIRE(outcome.end == ChildEnd::finished);
  REQUIRE(outcome.payload.size() == size);
  REQUIRE(outcome.payload == expected);
  REQUIRE(outcome.exit_code == 0);
  REQUIRE(outcome.signal == 0);
  REQUIRE(outcome.detail == "exit 0");
  REQUIRE(outcome.elapsed < 10s);
}

TEST_CASE("the child runs in a process group of its own", "[probe]") {
  const auto outcome = run_in_child(
      [] { return std::to_string(::getpgrp()) + " " + std::to_string(::getpid()); }, 10s);
  REQUIRE(outcome.end == ChildEnd::finished);
  const auto space = outcome.payload.find(' ');
  REQUIRE(space != std::string::npos);
  REQUIRE(outcome.payload.substr(0, space) == outcome.payload.substr(space + 1));
  REQUIRE(outcome.payload.substr(0, space) != std::to_string(::getpgrp()));
}

TEST_CASE("a child that aborts has failed with SIGABRT", "[probe]") {
  const auto outcome = run_in_child([]() -> std::string { plain_abort(); }, 10s);
  REQUIRE(outcome.end == ChildEnd::failed);
  REQUIRE(outcome.signal == SIGABRT);
  REQUIRE(outcome.exit_code == -1);
  REQUIRE(outcome.detail == "killed by SIGABRT");
  REQUIRE(outcome.payload.empty());
}

TEST_CASE("a child whose body throws has failed with exit 1 and no payload", "[probe]") {
  const auto outcome =
      run_in_child([]() -> std::string { throw std::runtime_error("trial broke"); }, 10s);
  REQUIRE(outcome.end == ChildEnd::failed);
  REQUIRE(outcome.exit_code == 1);
  REQUIRE(outcome.signal == 0);
  REQUIRE(outcome.detail == "exit 1");
  REQUIRE(outcome.payload.empty());
}

TEST_CASE("a child that hangs is killed after the timeout", "[probe]") {
  const auto outcome = run_in_child(
      []() -> std::string {
        for (;;) ::pause();
      },
      0.3s);
  REQUIRE(outcome.end == ChildEnd::timed_out);
  REQUIRE(outcome.signal == SIGKILL);
  REQUIRE(outcome.detail == "timed out after 0.3 s (killed)");
  REQUIRE(outcome.elapsed >= 0.3s);
  REQUIRE(outcome.elapsed < 3s);  // generous: correctness, not timing
}

TEST_CASE("the child's whole process group is killed", "[probe]") {
  SharedPid grandchild;
  const KillIfAlive cleanup(grandchild);
  SECTION("when the child hangs") {
    const auto outcome = run_in_child(
        [&]() -> std::string {
          grandchild.set(fork_sleeper());
          for (;;) ::pause();
        },
        0.5s);
    REQUIRE(outcome.end == ChildEnd::timed_out);
  }
  SECTION("when the child finishes and leaves the grandchild behind") {
    // The grandchild also holds the pipe's write end: the parent must not wait for EOF.
    const auto outcome = run_in_child(
        [&] {
          grandchild.set(fork_sleeper());
          return std::string("done");
        },
        10s);
    REQUIRE(outcome.end == ChildEnd::finished);
    REQUIRE(outcome.payload == "done");
    REQUIRE(outcome.elapsed < 5s);
  }
  REQUIRE(grandchild.get() > 0);
  REQUIRE(process_gone(grandchild.get(), 3s));
}

TEST_CASE("the child dies with its parent", "[probe]") {
  SharedPid watched;
  const KillIfAlive cleanup(watched);
  const pid_t parent = ::fork();
  REQUIRE(parent >= 0);
  if (parent == 0) {  // a parent running the watchdog, killed below while it waits
    run_in_child(
        [&]() -> std::string {
          watched.set(::getpid());
          for (;;) ::pause();
        },
        60s);
    _exit(0);
  }
  const auto give_up = std::chrono::steady_clock::now() + 5s;
  while (watched.get() == 0 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(10ms);
  }
  ::kill(parent, SIGKILL);
  int status = 0;
  REQUIRE(::waitpid(parent, &status, 0) == parent);
  REQUIRE(watched.get() > 0);
  REQUIRE(process_gone(watched.get(), 3s));
}

TEST_CASE("run_in_child closes its pipe on every path", "[probe]") {
  const std::size_t before = open_fd_count();
  run_in_child([] { return std::string("x"); }, 10s);
  run_in_child([]() -> std::string { throw std::logic_error("no"); }, 10s);
  run_in_child(
      []() -> std::string {
        for (;;) ::pause();
      },
      0.2s);
  REQUIRE(open_fd_count() == before);
}

TEST_CASE("output buffered before the fork is written once", "[probe]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  std::fputs("once", file);  // still in the stdio buffer: the fork would copy it
  const auto outcome = run_in_child([] { return std::string(); }, 10s);
  REQUIRE(outcome.end == ChildEnd::finished);
  std::fflush(file);
  std::rewind(file);
  char text[16] = {};
  const std::size_t got = std::fread(text, 1, sizeof text - 1, file);
  std::fclose(file);
  REQUIRE(std::string(text, got) == "once");
}
