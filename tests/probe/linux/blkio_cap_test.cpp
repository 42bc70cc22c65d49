// SPDX-License-Identifier: GPL-2.0-or-later
// A cgroup's read cap on a device, from a cgroup tree laid out as the kernel lays it out.
#include "probe/linux/blkio_cap.hpp"

#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace disktune;

namespace {

void write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("read cap: a v1 blkio cgroup's throttle files, for the device asked about only", "[probe]") {
  testing::TempDir root("cgroup");
  write(root.path() + "/blkio/bed/blkio.throttle.read_bps_device", "8:0 1000\n7:3 200000000\n");
  write(root.path() + "/blkio/bed/blkio.throttle.read_iops_device", "7:3 100\n");
  const std::string own = "9:name=systemd:/\n7:blkio:/bed\n0::/\n";
  const auto cap = probe::read_cap("7:3", own, root.path());
  REQUIRE(cap);
  CHECK(cap->bytes_per_s == 200000000u);
  CHECK(cap->ios_per_s == 100u);
  CHECK_FALSE(probe::read_cap("7:30", own, root.path()));  // "7:3" is not a prefix match
  CHECK_FALSE(probe::read_cap("7:3", "7:blkio:/\n0::/\n", root.path()));  // another cgroup's
}

TEST_CASE("read cap: v2 io.max at the root or under unified/, 'max' is no cap", "[probe]") {
  testing::TempDir root("cgroup");
  write(root.path() + "/unified/bed/io.max", "7:3 rbps=52428800 wbps=max riops=max wiops=max\n");
  const auto cap = probe::read_cap("7:3", "0::/bed\n", root.path());
  REQUIRE(cap);
  CHECK(cap->bytes_per_s == 52428800u);
  CHECK_FALSE(cap->ios_per_s);
  write(root.path() + "/only/io.max", "7:3 rbps=max wbps=max riops=max wiops=max\n");
  CHECK_FALSE(probe::read_cap("7:3", "0::/only\n", root.path()));
  CHECK_FALSE(probe::read_cap("7:3", "", root.path()));
}
