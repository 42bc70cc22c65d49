// SPDX-License-Identifier: GPL-2.0-or-later
// free_disks (tune --all) on a fake /sys and /proc: the root disk, disks in use, virtual devices.
#include "tuner/fleet/drive_list.hpp"

#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using disktune::tuner::free_disks;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// block/NAME (MAJ:MIN, SIZE sectors), a device link when `real`, linked from class/block and dev/block.
fs::path add_block(const fs::path& sys, const std::string& name, const std::string& dev, bool real,
                   const std::string& size = "131072") {
  const fs::path dir = sys / "block" / name;
  write(dir / "dev", dev + "\n");
  write(dir / "size", size + "\n");
  if (real) fs::create_directories(dir / "device");
  fs::create_directories(sys / "class/block");
  fs::create_directories(sys / "dev/block");
  fs::create_symlink(dir, sys / "class/block" / name);
  fs::create_symlink(dir, sys / "dev/block" / dev);
  return dir;
}

void add_partition(const fs::path& sys, const fs::path& disk, const std::string& name, const std::string& dev) {
  write(disk / name / "dev", dev + "\n");
  write(disk / name / "partition", "1\n");
  fs::create_symlink(disk / name, sys / "class/block" / name);
  fs::create_symlink(disk / name, sys / "dev/block" / dev);
}

}  // namespace

TEST_CASE("free_disks takes the free whole disks, never the root disk, in-use ones only with --allow-mounted", "[tuner]") {
  const disktune::testing::TempDir tmp("drive-list");
  const fs::path sys = fs::path(tmp.path()) / "sys";
  const fs::path proc = fs::path(tmp.path()) / "proc";
  add_partition(sys, add_block(sys, "vda", "254:0", true), "vda1", "254:1");
  add_block(sys, "sda", "8:0", true);
  add_partition(sys, add_block(sys, "sdb", "8:16", true), "sdb1", "8:17");
  add_block(sys, "sr0", "11:0", true, "0");       // a drive without a medium
  add_block(sys, "loop0", "7:0", false);          // virtual: only when named
  add_block(sys, "dm-0", "253:0", false);
  write(proc / "self/mountinfo", "22 1 254:1 / / rw - ext4 /dev/vda1 rw\n30 22 8:17 / /data rw - ext4 /dev/sdb1 rw\n");
  write(proc / "swaps", "Filename Type Size Used Priority\n");

  const auto list = free_disks(false, sys.string(), proc.string());
  REQUIRE(list.drives == std::vector<std::string>{"sda"});
  REQUIRE(list.skipped.size() == 2);
  REQUIRE_THAT(list.skipped[0], Catch::StartsWith("sdb: sdb1 is mounted on /data"));
  REQUIRE(list.skipped[1] == "vda: holds / (the root file system)");

  const auto mounted = free_disks(true, sys.string(), proc.string());
  REQUIRE(mounted.drives == std::vector<std::string>{"sda", "sdb"});
  REQUIRE(mounted.skipped == std::vector<std::string>{"vda: holds / (the root file system)"});
}

TEST_CASE("free_disks never takes the disks of a btrfs root, which mountinfo shows as an anonymous 0:NN", "[tuner]") {
  const disktune::testing::TempDir tmp("drive-list-btrfs");
  const fs::path sys = fs::path(tmp.path()) / "sys";
  const fs::path proc = fs::path(tmp.path()) / "proc";
  add_partition(sys, add_block(sys, "vda", "254:0", true), "vda2", "254:2");
  add_block(sys, "vdb", "254:16", true);  // the root btrfs's second device
  add_block(sys, "sda", "8:0", true);
  fs::create_directories(sys / "fs/btrfs/1f2e/devices/vda2");
  fs::create_directories(sys / "fs/btrfs/1f2e/devices/vdb");
  write(proc / "self/mountinfo", "22 1 0:24 /@ / rw - btrfs /dev/vda2 rw,subvol=/@\n");
  write(proc / "swaps", "Filename Type Size Used Priority\n");

  const auto list = free_disks(false, sys.string(), proc.string());
  CHECK(list.drives == std::vector<std::string>{"sda"});
  CHECK(list.skipped == std::vector<std::string>{"vda: holds / (the root file system)", "vdb: holds / (the root file system)"});
  // --allow-mounted never reaches the root disks either.
  CHECK(free_disks(true, sys.string(), proc.string()).drives == std::vector<std::string>{"sda"});
}

TEST_CASE("free_disks never takes the disk under an overlay root's layers, and refuses a root it cannot place", "[tuner]") {
  const disktune::testing::TempDir tmp("drive-list-overlay");
  const fs::path sys = fs::path(tmp.path()) / "sys";
  const fs::path proc = fs::path(tmp.path()) / "proc";
  const fs::path upper = fs::path(tmp.path()) / "upper";
  fs::create_directories(upper);
  struct stat st {};
  REQUIRE(::stat(upper.c_str(), &st) == 0);
  const std::string layers = std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  // The disk holding the layers (a container's /var/lib/docker, a live system's medium): vdz.
  add_partition(sys, add_block(sys, "vdz", "250:0", true), "vdz1", layers);
  add_block(sys, "sda", "8:0", true);
  write(proc / "swaps", "Filename Type Size Used Priority\n");

  write(proc / "self/mountinfo", "22 1 0:52 / / rw - overlay overlay rw,lowerdir=/nonexistent/l:" + upper.string() +
                                     ",upperdir=" + upper.string() + ",workdir=" + upper.string() + "\n");
  const auto list = free_disks(true, sys.string(), proc.string());  // not even with --allow-mounted
  CHECK(list.drives == std::vector<std::string>{"sda"});
  CHECK(list.skipped == std::vector<std::string>{"vdz: holds / (the root file system)"});

  // A root whose disks cannot be told (zfs shows a pool, not a device): --all refuses to guess.
  write(proc / "self/mountinfo", "22 1 0:40 / / rw - zfs rpool/ROOT/debian rw,xattr\n");
  CHECK_THROWS_WITH(free_disks(true, sys.string(), proc.string()),
                    Catch::Contains("--all: cannot tell which disk holds / (zfs rpool/ROOT/debian on 0:40)"));

  // A root that holds no disk at all (a live system in RAM, NFS): every disk is free.
  write(proc / "self/mountinfo", "22 1 0:30 / / rw - tmpfs tmpfs rw\n");
  CHECK(free_disks(false, sys.string(), proc.string()).drives == std::vector<std::string>{"sda", "vdz"});
}
