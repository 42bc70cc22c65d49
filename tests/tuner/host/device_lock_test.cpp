// SPDX-License-Identifier: GPL-2.0-or-later
// DeviceLock: one command per device number, whatever node or symlink names it.
#include "tuner/host/device_lock.hpp"

#include "tuner/run_error.hpp"

#include "tests/support/temp_dir.hpp"

#include "tests/support/skip.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

using namespace disktune;

namespace {

// Block device nodes need no device behind them to be stat'ed: 7:250 is a loop minor no
// test attaches. mknod needs root; without it the test is skipped.
bool make_node(const std::string& path, unsigned minor_number) {
  return ::mknod(path.c_str(), S_IFBLK | 0600, makedev(7, minor_number)) == 0;
}

// A temporary directory with the block node `a` (7:250) and an empty lock directory `locks`;
// ready() is false (the test skips) without root.
struct LockSetup {
  explicit LockSetup(const char* name) : temp(name), dir(temp.path()), locks(dir + "/locks") {
    if (make_node(dir + "/a", 250)) made = std::filesystem::create_directory(locks);
  }
  [[nodiscard]] bool ready() const {
    if (!made) disktune::testing::skip_test("mknod needs root");
    return made;
  }
  testing::TempDir temp;
  std::string dir, locks;
  bool made = false;
};

}  // namespace

TEST_CASE("DeviceLock refuses a second lock of the same device number through another node or a symlink", "[tuner]") {
  const testing::TempDir temp("lock");
  const std::string dir = temp.path(), locks = dir + "/locks";
  if (!make_node(dir + "/a", 250)) {
    disktune::testing::skip_test("mknod needs root");
    return;
  }
  REQUIRE(make_node(dir + "/b", 250));
  REQUIRE(make_node(dir + "/other", 251));
  REQUIRE(::symlink((dir + "/a").c_str(), (dir + "/link").c_str()) == 0);
  {
    std::optional<tuner::DeviceLock> held;
    held.emplace(dir + "/a", locks);
    const std::string holder = "pid " + std::to_string(::getpid());
    for (const auto* name : {"/b", "/link", "/a"}) {
      CAPTURE(name);
      REQUIRE_THROWS_WITH(tuner::DeviceLock(dir + name, locks),
                          Catch::Contains("(7:250) is in use by another disktune command: " + holder));
    }
    try {
      tuner::DeviceLock second(dir + "/b", locks);
    } catch (const tuner::RunError& error) {
      REQUIRE(error.code() == tuner::kExitUsage);
    }
    REQUIRE_NOTHROW(tuner::DeviceLock(dir + "/other", locks));  // another device
    REQUIRE_NOTHROW(tuner::DeviceLock("sim:", locks));           // simulated: no lock
    held.reset();
    REQUIRE_NOTHROW(tuner::DeviceLock(dir + "/b", locks));  // released with its holder
  }
  REQUIRE(std::filesystem::exists(locks + "/7:250.lock"));
}

// CI: `disktune restore` right after a kill -9 of a tune was refused because the killed
// tune's trial child, dying with it, still held the lock for a moment.
TEST_CASE("DeviceLock waits for a dying child of an exited holder instead of refusing", "[tuner]") {
  const LockSetup setup("lock-orphan");
  if (!setup.ready()) return;
  const std::string &dir = setup.dir, &locks = setup.locks;
  const pid_t exited = ::fork();
  if (exited == 0) ::_exit(0);
  REQUIRE(::waitpid(exited, nullptr, 0) == exited);  // a pid that is gone, as a killed tune's
  const int fd = ::open((locks + "/7:250.lock").c_str(), O_RDWR | O_CREAT, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX) == 0);
  const std::string record = std::to_string(exited) + " disktune tune /dev/loop9\n";
  REQUIRE(::pwrite(fd, record.data(), record.size(), 0) == static_cast<ssize_t>(record.size()));
  const pid_t orphan = ::fork();  // shares the lock, lets go 0.5 s later, as a dying trial child
  if (orphan == 0) {
    ::usleep(500'000);
    ::_exit(0);
  }
  ::close(fd);
  const auto start = std::chrono::steady_clock::now();
  REQUIRE_NOTHROW(tuner::DeviceLock(dir + "/a", locks));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::milliseconds(tuner::kOrphanWaitMs));
  REQUIRE(::waitpid(orphan, nullptr, 0) == orphan);
}

// The adversary: a directory at the lock path sent every command to the fallback lock on its
// own device node, and two tunes through two nodes of one device ran at once.
TEST_CASE("DeviceLock refuses a lock path that is no regular file instead of falling back", "[tuner]") {
  const LockSetup setup("lock-path");
  if (!setup.ready()) return;
  const std::string &dir = setup.dir, &locks = setup.locks;
  const std::string path = locks + "/7:250.lock";
  SECTION("a directory") { REQUIRE(std::filesystem::create_directory(path)); }
  SECTION("a symlink") { REQUIRE(::symlink((dir + "/elsewhere").c_str(), path.c_str()) == 0); }
  SECTION("a FIFO") { REQUIRE(::mkfifo(path.c_str(), 0600) == 0); }
  try {
    tuner::DeviceLock lock(dir + "/a", locks);
    FAIL("locked through " << path);
  } catch (const tuner::RunError& error) {
    REQUIRE(error.code() == tuner::kExitUsage);
    REQUIRE_THAT(error.what(), Catch::Contains("lock file " + path));
  }
}
