// SPDX-License-Identifier: GPL-2.0-or-later
// mountinfo read as proc(5) writes it.
#include "probe/watch/mountinfo.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace disktune;
namespace fs = std::filesystem;

TEST_CASE("mountinfo: fields 3 and 5, the type and source after the separator, optional fields skipped") {
  const fs::path path = fs::temp_directory_path() / ("disktune-mountinfo-" + std::to_string(::getpid()));
  {
    std::ofstream out(path);
    // Lines as proc(5)'s example and a 6.18 kernel write them: optional fields before " - ".
    out << "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n"
           "25 1 0:31 / / rw,relatime shared:1 shared:7 - btrfs /dev/vda2 rw,ssd,subvol=/\n"
           "40 25 0:40 / /tmp/with\\040space rw - tmpfs tmpfs rw\n"
           "41 25 0:41 / /broken rw\n";
  }
  const auto mounts = probe::read_mountinfo(path);
  fs::remove(path);
  REQUIRE(mounts.size() == 4);
  CHECK(mounts[0].majmin == "98:0");
  CHECK(mounts[0].mount_point == "/mnt2");
  CHECK(mounts[0].type == "ext3");
  CHECK(mounts[0].source == "/dev/root");
  CHECK(mounts[0].options == "rw,errors=continue");
  CHECK(mounts[1].majmin == "0:31");
  CHECK(mounts[1].type == "btrfs");
  CHECK(mounts[1].source == "/dev/vda2");
  CHECK(mounts[2].mount_point == "/tmp/with\\040space");
  CHECK(mounts[2].source == "tmpfs");
  CHECK(mounts[3].majmin == "0:41");
  CHECK(mounts[3].type.empty());
  CHECK(mounts[3].source.empty());
  CHECK(probe::read_mountinfo(path).empty());  // gone: no mounts, no throw
}

TEST_CASE("mountinfo: a source under /dev named as a kernel device, others as none") {
  CHECK(probe::source_kernel_name("/dev/sdb1", false) == "sdb1");
  CHECK(probe::source_kernel_name("/dev/mapper/vg-root", false) == "vg-root");
  CHECK(probe::source_kernel_name("tmpfs", true).empty());
  CHECK(probe::source_kernel_name("none", false).empty());
  // Resolved on the real /dev: a node that does not exist keeps its written name.
  CHECK(probe::source_kernel_name("/dev/disktune-no-such-node", true) == "disktune-no-such-node");
}

TEST_CASE("fuse_mount_type: FUSE file systems (fuse, fuse.SUBTYPE), not fuseblk or any other type") {
  std::vector<probe::Mount> mounts(5);
  mounts[0] = {"0:52", "/tmp/e/mnt", "fuse.emudisk", "emudisk-hdd", "ro,user_id=0"};
  mounts[1] = {"0:53", "/mnt/s", "fuse.sshfs", "host:/x", "rw"};
  mounts[2] = {"0:54", "/mnt/f", "fuse", "/dev/fuse", "rw"};
  mounts[3] = {"8:17", "/mnt/ntfs", "fuseblk", "/dev/sdb1", "rw"};
  mounts[4] = {"0:40", "/tmp", "tmpfs", "tmpfs", "rw"};
  CHECK(probe::fuse_mount_type(mounts, "0:52") == "fuse.emudisk");
  CHECK(probe::fuse_mount_type(mounts, "0:53") == "fuse.sshfs");
  CHECK(probe::fuse_mount_type(mounts, "0:54") == "fuse");
  CHECK(probe::fuse_mount_type(mounts, "8:17").empty());
  CHECK(probe::fuse_mount_type(mounts, "0:40").empty());
  CHECK(probe::fuse_mount_type(mounts, "0:99").empty());
  // A later mount with the same st_dev (a bind, or the same device mounted again) decides.
  mounts.push_back({"0:52", "/other", "tmpfs", "tmpfs", "rw"});
  CHECK(probe::fuse_mount_type(mounts, "0:52").empty());
}

TEST_CASE("mount_type: the type of the last mount with that st_dev, empty when none") {
  std::vector<probe::Mount> mounts(2);
  mounts[0] = {"0:40", "/dev/shm", "tmpfs", "tmpfs", "rw"};
  mounts[1] = {"254:0", "/", "ext4", "/dev/vda", "rw"};
  CHECK(probe::mount_type(mounts, "0:40") == "tmpfs");
  CHECK(probe::mount_type(mounts, "254:0") == "ext4");
  CHECK(probe::mount_type(mounts, "0:99").empty());
  mounts.push_back({"0:40", "/other", "ramfs", "ramfs", "rw"});
  CHECK(probe::mount_type(mounts, "0:40") == "ramfs");
}
