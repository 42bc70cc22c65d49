// SPDX-License-Identifier: GPL-2.0-or-later
// drive_candidates and identity_difference: where apply and verify look, and what tells drives apart.
#include "tuner/keep/drive_match.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace disktune;
using namespace disktune::tuner;
namespace fs = std::filesystem;

namespace {

// A fake /sys/block and /dev: each disk a directory with its `size` in 512-byte sectors and a
// regular file standing for its node.
struct FakeDisks {
  fs::path root = fs::temp_directory_path() / ("disktune-drive-match-" + std::to_string(::getpid()));
  FakeDisks() {
    fs::create_directories(root / "sys");
    fs::create_directories(root / "dev");
  }
  ~FakeDisks() { fs::remove_all(root); }
  void add(const std::string& name, std::uint64_t sectors) const {
    fs::create_directories(root / "sys" / name);
    std::ofstream(root / "sys" / name / "size") << sectors << '\n';
    std::ofstream(root / "dev" / name) << "";
  }
  [[nodiscard]] std::string sys() const { return (root / "sys").string(); }
  [[nodiscard]] std::string dev() const { return (root / "dev").string(); }
};

}  // namespace

TEST_CASE("drive candidates: a disk whose kernel name moved is found among disks of its size", "[tuner]") {
  const FakeDisks disks;
  disks.add("sda", 1953525168);  // the report's size: 1000204886016 bytes
  disks.add("sdb", 1953525168);
  disks.add("sdc", 976773168);   // another size: never opened
  disks.add("loop0", 1953525168);
  disks.add("dm-0", 1953525168);
  results::DeviceInfo report;
  report.path = disks.dev() + "/sdb";
  report.model = "WDC WD10EZEX-08WN4A0";
  report.serial = "WD-WCC6Y0ABCDEF";
  report.size_bytes = 1953525168ull * 512;
  const auto found = drive_candidates(report, disks.sys(), disks.dev());
  // The report's path first, then the other disks of that size in name order; no loop or dm.
  REQUIRE(found == std::vector<std::string>{disks.dev() + "/sdb", disks.dev() + "/sda"});
}

TEST_CASE("drive candidates: a loop device's report never scans the disks", "[tuner]") {
  const FakeDisks disks;
  disks.add("vda", 131072);
  results::DeviceInfo report;
  report.path = disks.dev() + "/loop9";  // detached: does not exist
  report.backing_file = "/srv/images/disk.img";
  report.size_bytes = 131072ull * 512;
  REQUIRE(drive_candidates(report, disks.sys(), disks.dev()).empty());
}

TEST_CASE("identity difference names each field that differs, with both values", "[tuner]") {
  results::DeviceInfo a;
  a.path = "/dev/sdb";
  a.model = "M";
  a.serial = "S1";
  a.size_bytes = 100;
  auto b = a;
  REQUIRE(identity_difference(a, b).empty());
  b.serial = "S2";
  b.size_bytes = 200;
  REQUIRE(identity_difference(a, b) == "serial 'S1' (report) vs 'S2' (/dev/sdb); size in bytes '100' (report) vs '200' (/dev/sdb)");
  REQUIRE(has_stable_identity(a));
  a.serial.clear();
  REQUIRE_FALSE(has_stable_identity(a));
}
