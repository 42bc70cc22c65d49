// SPDX-License-Identifier: GPL-2.0-or-later
// Input file checks: only regular files of a bounded size are read.
#include "tuner/host/input_file.hpp"

#include "tuner/run_error.hpp"

#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

using namespace disktune;

TEST_CASE("check_input_file takes a regular file and refuses FIFOs, devices and directories", "[tuner]") {
  const testing::TempDir temp("input");
  const std::string& dir = temp.path();
  const std::string file = dir + "/capture.txt", fifo = dir + "/fifo";
  std::ofstream(file) << "text\n";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  REQUIRE_NOTHROW(tuner::check_input_file("--from", file));
  REQUIRE_THROWS_WITH(tuner::check_input_file("--from", fifo), "--from " + fifo + ": is a FIFO (named pipe), not a regular file");
  REQUIRE_THROWS_WITH(tuner::check_input_file("--sim-profile", "/dev/zero"), Catch::Contains("a character device"));
  REQUIRE_THROWS_WITH(tuner::check_input_file("--journal", dir), Catch::Contains("--journal " + dir + ": is a directory"));
  REQUIRE_THROWS_WITH(tuner::check_input_file("--from", dir + "/missing"), Catch::Contains("No such file"));
  try {
    tuner::check_input_file("--from", fifo);
  } catch (const tuner::RunError& error) {
    REQUIRE(error.code() == tuner::kExitUsage);
  }
}

TEST_CASE("check_input_fd refuses an open FIFO and a file larger than any input", "[tuner]") {
  const testing::TempDir temp("input");
  const std::string& dir = temp.path();
  const std::string fifo = dir + "/fifo", huge = dir + "/huge";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const int fifo_fd = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);  // O_RDWR: does not wait for a writer
  REQUIRE(fifo_fd >= 0);
  REQUIRE_THROWS_WITH(tuner::check_input_fd(fifo_fd, "journal", fifo), Catch::Contains("a FIFO"));
  const int huge_fd = ::open(huge.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  REQUIRE(huge_fd >= 0);
  REQUIRE(::ftruncate(huge_fd, static_cast<off_t>(tuner::kMaxInputBytes)) == 0);  // sparse
  REQUIRE_NOTHROW(tuner::check_input_fd(huge_fd, "journal", huge));
  REQUIRE(::ftruncate(huge_fd, static_cast<off_t>(tuner::kMaxInputBytes + 1)) == 0);
  REQUIRE_THROWS_WITH(tuner::check_input_fd(huge_fd, "journal", huge), Catch::Contains("at most 256 MiB"));
}

TEST_CASE("read_whole_file reads a regular file whole and never blocks on a FIFO or a device", "[tuner]") {
  const testing::TempDir temp("read-whole");
  const std::string& dir = temp.path();
  const std::string file = dir + "/journal", fifo = dir + "/fifo", empty = dir + "/empty";
  const std::string text(200000, 'j');  // more than one read(2) of the reader's buffer
  std::ofstream(file) << text;
  std::ofstream{empty};
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // no writer: a blocking open would wait for ever
  REQUIRE(tuner::read_whole_file(file) == text);
  REQUIRE(tuner::read_whole_file(empty) == std::string{});
  REQUIRE_FALSE(tuner::read_whole_file(fifo));
  REQUIRE_FALSE(tuner::read_whole_file("/dev/zero"));
  REQUIRE_FALSE(tuner::read_whole_file(dir));
  REQUIRE_FALSE(tuner::read_whole_file(dir + "/missing"));
}
