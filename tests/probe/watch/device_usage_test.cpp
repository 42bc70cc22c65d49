// SPDX-License-Identifier: GPL-2.0-or-later
// device_uses on fake /sys and /proc trees: mounts, holders and free disks.
#include "probe/watch/device_usage.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using disktune::probe::device_uses;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// sys/block/sdb (8:16) with partitions sdb1 (8:17) and sdb2 (8:18), and an empty proc.
fs::path fake_tree() {
  char name[] = "/tmp/disktune-usage-XXXXXX";
  const fs::path root = ::mkdtemp(name);
  write(root / "sys/block/sdb/dev", "8:16\n");
  write(root / "sys/block/sdb/sdb1/dev", "8:17\n");
  write(root / "sys/block/sdb/sdb1/partition", "1\n");
  write(root / "sys/block/sdb/sdb2/dev", "8:18\n");
  write(root / "sys/block/sdb/sdb2/partition", "2\n");
  fs::create_directories(root / "sys/block/sdb/holders");
  write(root / "proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n");
  write(root / "proc/swaps", "Filename Type Size Used Priority\n");
  return root;
}

}  // namespace

TEST_CASE("device_uses finds a mounted partition and a dm holder, and nothing on a free disk", "[probe]") {
  const auto root = fake_tree();
  const auto sys = (root / "sys").string();
  const auto proc = (root / "proc").string();
  REQUIRE(device_uses("sdb", sys, proc).empty());

  write(root / "proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n30 22 8:17 / /data rw - ext4 /dev/sdb1 rw\n");
  auto uses = device_uses("sdb", sys, proc);
  REQUIRE(uses == std::vector<std::string>{"sdb1 is mounted on /data"});

  fs::create_directories(root / "sys/block/sdb/sdb2/holders/dm-0");
  uses = device_uses("sdb", sys, proc);
  REQUIRE(uses.size() == 2);
  REQUIRE(uses[1] == "sdb2 is held by dm-0 (device-mapper/LVM/md)");
  // A loop device set up over a partition: no holder shows it, its backing_file does.
  write(root / "sys/block/loop1/loop/backing_file", "/dev/sdb1\n");
  write(root / "sys/block/loop2/loop/backing_file", "/srv/disk.img\n");  // a file: the mount shows that
  uses = device_uses("sdb", sys, proc);
  REQUIRE(uses.size() == 3);
  REQUIRE(uses[2] == "sdb1 backs loop1 (a loop device set up over it: losetup -d /dev/loop1 frees it)");
  fs::remove_all(root);
}

TEST_CASE("device_uses finds a btrfs by its mount source and every device of a multi-device btrfs", "[probe]") {
  const auto root = fake_tree();
  const auto sys = (root / "sys").string();
  const auto proc = (root / "proc").string();
  // btrfs: mountinfo's device number is anonymous (0:NN); only the source names the disk.
  write(root / "proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n31 22 0:45 / /srv rw - btrfs /dev/sdb1 rw\n");
  CHECK(device_uses("sdb", sys, proc) == std::vector<std::string>{"sdb1 is mounted on /srv"});
  // A second device of that btrfs: mountinfo names only the first, /sys/fs/btrfs lists both.
  write(root / "proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n31 22 0:45 / /srv rw - btrfs /dev/sdc rw\n");
  fs::create_directories(root / "sys/fs/btrfs/5d1c/devices/sdc");
  fs::create_directories(root / "sys/fs/btrfs/5d1c/devices/sdb2");
  CHECK(device_uses("sdb", sys, proc) == std::vector<std::string>{"sdb2 is a device of the btrfs file system 5d1c"});
  fs::remove_all(root);
}
