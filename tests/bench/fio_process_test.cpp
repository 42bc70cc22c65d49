// SPDX-License-Identifier: GPL-2.0-or-later
// bench/run_fio: the fio child does not outlive the process that started it, whether that
// process is killed alone (PDEATHSIG) or with its group (a trial's watchdog).
#include "bench/fio_process.hpp"

#include "probe/watch/watchdog.hpp"
#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace disktune;

namespace {

// A stand-in fio that writes its pid to dir/pid and then sleeps 30 s as that same process.
void sleeping_fio(const std::string& dir) {
  const auto path = dir + "/fio";
  std::ofstream(path) << "#!/bin/sh\necho $$ > " << dir << "/pid.tmp && mv " << dir << "/pid.tmp " << dir
                      << "/pid\nexec sleep 30\n";
  ::chmod(path.c_str(), 0755);
}

// Runs run_fio with PATH = dir first; for a child process only (it never returns).
[[noreturn]] void run_fio_and_exit(const std::string& dir) {
  ::setenv("PATH", (dir + ":/usr/bin:/bin").c_str(), 1);
  (void)bench::run_fio({}, bench::FioLimits{"", probe::Seconds(60.0), {}});
  _exit(0);
}

// The pid the stand-in wrote, waiting up to 10 s for it; 0 if none came.
pid_t fio_pid(const std::string& dir) {
  for (int i = 0; i < 200; ++i) {
    std::ifstream file(dir + "/pid");
    pid_t pid = 0;
    if (file >> pid) return pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return 0;
}

bool gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_field, name, state;
  return !(stat >> pid_field >> name >> state) || state == "Z";  // a zombie reads no more
}

// True once `pid` has ended (polled up to 5 s); kills it otherwise, so no test leaves it.
bool ends(pid_t pid) {
  for (int i = 0; i < 100 && !gone(pid); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const bool ended = gone(pid);
  if (!ended) ::kill(pid, SIGKILL);
  return ended;
}

}  // namespace

TEST_CASE("run_fio's child dies when the process that started it is killed alone", "[bench]") {
  disktune::testing::TempDir dir("fio-orphan");
  sleeping_fio(dir.path());
  std::fflush(nullptr);
  const pid_t parent = ::fork();
  REQUIRE(parent >= 0);
  if (parent == 0) {
    ::setpgid(0, 0);  // its own group, so that only PDEATHSIG can end fio
    run_fio_and_exit(dir.path());
  }
  const pid_t fio = fio_pid(dir.path());
  ::kill(parent, SIGKILL);
  ::waitpid(parent, nullptr, 0);
  REQUIRE(fio > 0);
  CHECK(ends(fio));
}

TEST_CASE("run_fio's child dies when a watchdog kills the trial child running it", "[bench]") {
  disktune::testing::TempDir dir("fio-watchdog");
  sleeping_fio(dir.path());
  const auto outcome = probe::run_in_child(
      [&]() -> std::string {
        run_fio_and_exit(dir.path());
      },
      probe::Seconds(1.0));
  CHECK(outcome.end == probe::ChildEnd::timed_out);
  const pid_t fio = fio_pid(dir.path());
  REQUIRE(fio > 0);
  CHECK(ends(fio));
}

namespace {

// A stand-in fio in `dir` running `body` (sh), found first on PATH while the guard lives.
struct StandInFio {
  disktune::testing::TempDir dir{"fio-limits"};
  std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  explicit StandInFio(const std::string& body) {
    std::ofstream(dir.path() + "/fio") << "#!/bin/sh\n" << body << '\n';
    ::chmod((dir.path() + "/fio").c_str(), 0755);
    ::setenv("PATH", (dir.path() + ":/usr/bin:/bin").c_str(), 1);
  }
  StandInFio(const StandInFio&) = delete;
  StandInFio& operator=(const StandInFio&) = delete;
  ~StandInFio() { ::setenv("PATH", old_path.c_str(), 1); }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("run_fio kills a fio that runs past its time limit and says so", "[bench]") {
  StandInFio fio("exec sleep 30");
  const auto start = std::chrono::steady_clock::now();
  const auto run = bench::run_fio({}, bench::FioLimits{"", probe::Seconds(0.3), {}});
  CHECK(seconds_since(start) < 5.0);
  REQUIRE_FALSE(run.has_value());
  CHECK(run.error().code == std::errc::timed_out);
  CHECK_THAT(run.error().message(), Catch::Contains("fio ran past its time limit of 0.3 s: killed"));
}

TEST_CASE("run_fio ends fio on the first stop request, whatever fio is doing", "[bench]") {
  // A fio busy reading a job that never ends (an `include /dev/zero` did this).
  StandInFio fio("exec cat /dev/zero > /dev/null");
  const auto start = std::chrono::steady_clock::now();
  const auto stop = [start] { return seconds_since(start) > 0.2; };
  const auto run = bench::run_fio({}, bench::FioLimits{"", probe::Seconds(60.0), stop});
  CHECK(seconds_since(start) < 5.0);
  REQUIRE_FALSE(run.has_value());
  CHECK(run.error().code == std::errc::interrupted);
}

TEST_CASE("run_fio gives fio its input on stdin, whole, and stdin is /dev/null without one", "[bench]") {
  StandInFio fio("cat");
  std::string job;
  for (int i = 0; i < 20000; ++i) job += "line " + std::to_string(i) + "\n";  // more than a pipe holds
  const auto fed = bench::run_fio({}, bench::FioLimits{job, probe::Seconds(30.0), {}});
  REQUIRE(fed.has_value());
  CHECK(fed->out == job);
  const auto empty = bench::run_fio({}, bench::FioLimits{"", probe::Seconds(30.0), {}});
  REQUIRE(empty.has_value());
  CHECK(empty->out.empty());
  CHECK(empty->exit_code == 0);
}
