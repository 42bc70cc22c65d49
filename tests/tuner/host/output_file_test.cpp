// SPDX-License-Identifier: GPL-2.0-or-later
// Output files: paths that cannot be written are found before a run; same-file detection.
#include "tuner/host/output_file.hpp"

#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <iterator>
#include <fstream>
#include <string>

using namespace disktune;

TEST_CASE("check_output_path finds unwritable paths before the run and leaves no file behind", "[tuner]") {
  const testing::TempDir temp("output");
  const std::string& dir = temp.path();
  REQUIRE_THROWS_WITH(tuner::check_output_path("/proc/disktune-test.json"), Catch::Contains("cannot write"));
  REQUIRE_THROWS_WITH(tuner::check_output_path("/proc/sys/vm/drop_caches"), Catch::Contains("cannot write"));
  // /proc refuses new files with ENOENT: said of a directory that is there, not as a missing one.
  REQUIRE_THROWS_WITH(tuner::check_output_path("/proc/self/disktune.json"),
                      Catch::Contains("directory /proc/self takes no new file: No such file or directory"));
  // A kernel interface file that is there is named as one, not as a directory refusing files.
  REQUIRE_THROWS_WITH(tuner::check_output_path("/proc/self/status"),
                      Catch::Contains("/proc/self/status: a procfs file (a kernel interface), not one to write to"));
  REQUIRE_THROWS_WITH(tuner::check_output_path("/sys/kernel/uevent_seqnum"),
                      Catch::Contains("/sys/kernel/uevent_seqnum: a sysfs file (a kernel interface), not one to write to"));
  REQUIRE_THROWS_WITH(tuner::check_output_path(dir + "/missing/r.json"),
                      Catch::Contains("directory " + dir + "/missing: No such file or directory"));
  REQUIRE_THROWS_WITH(tuner::check_output_path(dir + "/missing/r.json"), Catch::Contains("cannot write"));
  REQUIRE_THROWS_WITH(tuner::check_output_path(dir + "/" + std::string(300, 'n')), Catch::Contains("too long"));
  REQUIRE_THROWS_WITH(tuner::check_output_path(dir), Catch::Contains("directory"));
  const std::string fine = dir + "/" + std::string(250, 'n');
  REQUIRE_NOTHROW(tuner::check_output_path(fine));
  REQUIRE(::access(fine.c_str(), F_OK) != 0);  // checked by creating it, then removed
  REQUIRE_NOTHROW(tuner::write_output(fine, "written\n"));
  std::string line;
  std::getline(std::ifstream(fine), line);
  REQUIRE(line == "written");
  const auto entries = std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator());
  REQUIRE(entries == 1);  // only `fine`: no temporary file left behind
}

TEST_CASE("same_file compares by inode and by resolved path; /dev/null may take several outputs", "[tuner]") {
  const testing::TempDir temp("output");
  const std::string& dir = temp.path();
  const std::string file = dir + "/j", link = dir + "/alias";
  std::ofstream(file) << "x";
  REQUIRE(::symlink(dir.c_str(), link.c_str()) == 0);
  REQUIRE(tuner::same_file(file, link + "/j"));
  REQUIRE(tuner::same_file(dir + "/new.json", link + "/new.json"));  // neither exists yet
  REQUIRE(tuner::same_file(dir + "/new.json", dir + "/./new.json"));
  REQUIRE_FALSE(tuner::same_file(file, dir + "/new.json"));
  REQUIRE_FALSE(tuner::same_file("/dev/null", "/dev/null"));
}
