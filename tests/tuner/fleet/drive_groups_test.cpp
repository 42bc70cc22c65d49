// SPDX-License-Identifier: GPL-2.0-or-later
// group_drives on fake sysfs trees: one ATA channel, partitions, dm over a disk, loop backing files.
#include "tuner/fleet/drive_groups.hpp"

#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using disktune::tuner::DriveGroup;
using disktune::tuner::group_drives;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// A disk NAME (MAJ:MIN dev) at devices/DEVICE_DIR/block/NAME, linked from block/ and class/block/.
fs::path add_disk(const fs::path& sys, const std::string& name, const std::string& device_dir, const std::string& dev) {
  const fs::path dir = sys / "devices" / device_dir / "block" / name;
  write(dir / "dev", dev + "\n");
  fs::create_directories(sys / "block");
  fs::create_directories(sys / "class/block");
  fs::create_symlink(dir, sys / "block" / name);
  fs::create_symlink(dir, sys / "class/block" / name);
  return dir;
}

void add_partition(const fs::path& sys, const fs::path& disk_dir, const std::string& name) {
  write(disk_dir / name / "partition", "1\n");
  fs::create_symlink(disk_dir / name, sys / "class/block" / name);
}

// A virtual block device (dm-N, loopN) with no device link, as the kernel makes them.
fs::path add_virtual(const fs::path& sys, const std::string& name, const std::string& dev) {
  return add_disk(sys, name, "virtual", dev);
}

std::vector<std::vector<std::string>> drives_of(const std::vector<DriveGroup>& groups) {
  std::vector<std::vector<std::string>> drives;
  for (const auto& group : groups) drives.push_back(group.drives);
  return drives;
}

}  // namespace

TEST_CASE("group_drives serialises two disks on one ATA channel and says which port", "[tuner]") {
  const disktune::testing::TempDir tmp("groups");
  const fs::path sys = fs::path(tmp.path()) / "sys";
  add_disk(sys, "sda", "pci0000:00/0000:00:01.1/ata1/host0/target0:0:0/0:0:0:0", "8:0");
  add_disk(sys, "sdb", "pci0000:00/0000:00:01.1/ata1/host0/target0:0:1/0:0:1:0", "8:16");
  add_disk(sys, "sdc", "pci0000:00/0000:00:01.1/ata2/host1/target1:0:0/1:0:0:0", "8:32");
  const auto groups = group_drives({"sda", "sdb", "sdc"}, sys.string());
  REQUIRE(drives_of(groups) == std::vector<std::vector<std::string>>{{"sda", "sdb"}, {"sdc"}});
  REQUIRE(groups[0].reasons == std::vector<std::string>{"sda and sdb: on one ATA channel (ata1)"});
  REQUIRE(groups[1].reasons.empty());
}

TEST_CASE("group_drives serialises a disk and its partition, and a dm device and the disk under it", "[tuner]") {
  const disktune::testing::TempDir tmp("groups");
  const fs::path sys = fs::path(tmp.path()) / "sys";
  const auto sda = add_disk(sys, "sda", "pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0", "8:0");
  add_partition(sys, sda, "sda1");
  add_disk(sys, "sdb", "pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0", "8:16");
  const auto dm = add_virtual(sys, "dm-0", "254:0");
  fs::create_directories(dm / "slaves");
  fs::create_symlink(sys / "block/sdb", dm / "slaves/sdb");
  const auto groups = group_drives({"sda1", "dm-0", "sda", "sdb"}, sys.string());
  REQUIRE(drives_of(groups) == std::vector<std::vector<std::string>>{{"sda1", "sda"}, {"dm-0", "sdb"}});
  REQUIRE(groups[0].reasons == std::vector<std::string>{"sda1 and sda: over one disk (sda)"});
  REQUIRE(groups[1].reasons == std::vector<std::string>{"dm-0 and sdb: over one disk (sdb)"});
}

TEST_CASE("group_drives serialises two names of one device", "[tuner]") {
  const disktune::testing::TempDir tmp("groups");
  const fs::path sys = fs::path(tmp.path()) / "sys";
  add_disk(sys, "sdb", "pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0", "8:16");
  const auto groups = group_drives({"sdb", "sdb"}, sys.string());
  REQUIRE(groups.size() == 1);
  REQUIRE(groups[0].reasons == std::vector<std::string>{"sdb and sdb: over one disk (sdb)"});
}

TEST_CASE("group_drives serialises loop devices over one file system, not over two", "[tuner]") {
  const disktune::testing::TempDir tmp("groups");
  const fs::path root = tmp.path();
  const fs::path sys = root / "sys";
  write(root / "a.img", "a");
  write(root / "b.img", "b");
  for (const auto& [name, dev] : {std::pair{"loop0", "7:0"}, {"loop1", "7:1"}, {"loop2", "7:2"}})
    add_virtual(sys, name, dev);
  write(sys / "block/loop0/loop/backing_file", (root / "a.img").string() + "\n");
  write(sys / "block/loop1/loop/backing_file", (root / "b.img").string() + "\n");
  write(sys / "block/loop2/loop/backing_file", "/proc/version\n");  // procfs: another st_dev
  const auto groups = group_drives({"loop0", "loop1", "loop2"}, sys.string());
  REQUIRE(drives_of(groups) == std::vector<std::vector<std::string>>{{"loop0", "loop1"}, {"loop2"}});
  REQUIRE(groups[0].reasons.size() == 1);
  REQUIRE_THAT(groups[0].reasons[0], Catch::StartsWith("loop0 and loop1: backing files on one file system (st_dev "));
}

TEST_CASE("group_drives runs independent disks and loop devices each in a group of its own", "[tuner]") {
  const disktune::testing::TempDir tmp("groups");
  const fs::path sys = fs::path(tmp.path()) / "sys";
  add_disk(sys, "sda", "pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0", "8:0");
  add_disk(sys, "sdb", "pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0", "8:16");
  add_disk(sys, "nvme0n1", "pci0000:00/0000:00:03.0/nvme/nvme0", "259:0");
  add_virtual(sys, "loop0", "7:0");
  write(sys / "block/loop0/loop/backing_file", "/proc/version\n");
  const auto groups = group_drives({"sda", "sdb", "nvme0n1", "loop0"}, sys.string());
  REQUIRE(drives_of(groups) == std::vector<std::vector<std::string>>{{"sda"}, {"sdb"}, {"nvme0n1"}, {"loop0"}});
  for (const auto& group : groups) REQUIRE(group.reasons.empty());
}
