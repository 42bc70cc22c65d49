// SPDX-License-Identifier: GPL-2.0-or-later
// Device usage from mountinfo, swaps and sysfs holders.
#include "probe/watch/device_usage.hpp"

#include "probe/core/text.hpp"
#include "probe/watch/mountinfo.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace disktune::probe {
namespace {

namespace fs = std::filesystem;

std::string read_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// MAJ:MIN -> name for the disk and each of its partitions.
std::map<std::string, std::string> disk_and_partitions(const std::string& name, const fs::path& sys_block) {
  std::map<std::string, std::string> devices;
  const fs::path disk = sys_block / name;
  if (const auto dev = read_line(disk / "dev"); !dev.empty()) devices[dev] = name;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(disk, ec)) {
    if (!fs::exists(entry.path() / "partition")) continue;
    if (const auto dev = read_line(entry.path() / "dev"); !dev.empty())
      devices[dev] = entry.path().filename().string();
  }
  return devices;
}

bool names(const std::map<std::string, std::string>& devices, const std::string& name) {
  for (const auto& [majmin, device] : devices)
    if (device == name) return true;
  return false;
}

// A mount counts by its device number (field 3) or by its source (after " - " and the file
// system type): btrfs shows an anonymous 0:NN there, and only its source names the disk.
void add_mounts(const std::map<std::string, std::string>& devices, const fs::path& mountinfo, bool real,
                std::vector<std::string>& uses) {
  for (const auto& mount : read_mountinfo(mountinfo)) {
    if (const auto it = devices.find(mount.majmin); it != devices.end())
      uses.push_back(it->second + " is mounted on " + mount.mount_point);
    else if (const auto name = source_kernel_name(mount.source, real); !name.empty() && names(devices, name))
      uses.push_back(name + " is mounted on " + mount.mount_point);
  }
}

// Every device of a mounted btrfs (a multi-device file system lists them all, mountinfo only one).
void add_btrfs(const std::map<std::string, std::string>& devices, const fs::path& sys, std::vector<std::string>& uses) {
  std::error_code ec;
  for (const auto& fs_dir : fs::directory_iterator(sys / "fs/btrfs", ec)) {
    std::error_code inner;
    for (const auto& device : fs::directory_iterator(fs_dir.path() / "devices", inner))
      if (names(devices, device.path().filename().string()))
        uses.push_back(device.path().filename().string() + " is a device of the btrfs file system " +
                       fs_dir.path().filename().string());
  }
}

// The kernel's own answer for what sysfs and /proc do not show (zfs, a claim by a driver): an
// exclusive open fails with EBUSY while a file system, swap, md, dm or bcache holds the disk or
// one of its partitions. Only on the real /dev.
void add_claim(const std::string& kernel_name, std::vector<std::string>& uses) {
  const std::string node = "/dev/" + kernel_name;
  const int fd = ::open(node.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
  if (fd >= 0) {
    ::close(fd);
  } else if (errno == EBUSY) {
    uses.push_back(node + " is claimed by the kernel (an exclusive open is busy: a file system, swap, md, dm, "
                          "bcache or zfs holds it or a partition)");
  }
}

void add_swaps(const std::map<std::string, std::string>& devices, const fs::path& swaps,
               std::vector<std::string>& uses) {
  std::ifstream in(swaps);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    const std::string path = line.substr(0, line.find_first_of(" \t"));
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) continue;
    const std::string majmin = probe::dev_number_text(st.st_rdev);
    if (const auto it = devices.find(majmin); it != devices.end()) uses.push_back(it->second + " is in use as swap");
  }
}

void add_holders(const std::string& disk, const std::map<std::string, std::string>& devices,
                 const fs::path& sys_block, std::vector<std::string>& uses) {
  for (const auto& [majmin, name] : devices) {
    const fs::path holders = name == disk ? sys_block / disk / "holders" : sys_block / disk / name / "holders";
    std::error_code ec;
    for (const auto& holder : fs::directory_iterator(holders, ec))
      uses.push_back(name + " is held by " + holder.path().filename().string() + " (device-mapper/LVM/md)");
  }
}

// A loop device set up over the disk or a partition (losetup /dev/loopN /dev/sdb1): its
// backing_file names the block device, and no holders/ entry shows it. On the real /sys the
// node is resolved to its device number; a fake tree's names are taken as written.
void add_loop_backing(const std::map<std::string, std::string>& devices, const fs::path& sys_block, bool real,
                      std::vector<std::string>& uses) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(sys_block, ec)) {
    const std::string loop = entry.path().filename().string();
    if (!loop.starts_with("loop")) continue;
    const std::string backing = read_line(entry.path() / "loop" / "backing_file");
    std::string name;
    struct stat st {};
    if (real) {  // any node of the disk counts, not only /dev/NAME (mknod elsewhere, a by-id link)
      if (::stat(backing.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) continue;
      const auto it = devices.find(probe::dev_number_text(st.st_rdev));
      if (it != devices.end()) name = it->second;
    } else if (backing.starts_with("/dev/")) {
      name = fs::path(backing).filename().string();
    }
    if (!name.empty() && names(devices, name))
      uses.push_back(name + " backs " + loop + " (a loop device set up over it: losetup -d /dev/" + loop + " frees it)");
  }
}

}  // namespace

std::vector<std::string> device_uses(const std::string& kernel_name, const std::string& sys_root,
                                     const std::string& proc_root, bool exclusive_open) {
  const fs::path sys_block = fs::path(sys_root) / "block";
  const auto devices = disk_and_partitions(kernel_name, sys_block);
  std::vector<std::string> uses;
  const bool real = sys_root == "/sys";
  add_mounts(devices, fs::path(proc_root) / "self" / "mountinfo", real, uses);
  add_swaps(devices, fs::path(proc_root) / "swaps", uses);
  add_holders(kernel_name, devices, sys_block, uses);
  add_loop_backing(devices, sys_block, real, uses);
  add_btrfs(devices, sys_root, uses);
  if (real && exclusive_open && uses.empty()) add_claim(kernel_name, uses);
  return uses;
}

std::vector<std::string> new_uses(const std::vector<std::string>& before, const std::vector<std::string>& now) {
  std::vector<std::string> added;
  for (const auto& use : now)
    if (std::find(before.begin(), before.end(), use) == before.end()) added.push_back(use);
  return added;
}

}  // namespace disktune::probe
