// SPDX-License-Identifier: GPL-2.0-or-later
// tune --all: /sys/block's whole disks, less the root file system's and the ones in use.
#include "tuner/fleet/drive_list.hpp"

#include "probe/core/text.hpp"
#include "probe/linux/sysfs.hpp"
#include "probe/watch/device_usage.hpp"
#include "probe/watch/mountinfo.hpp"
#include "tuner/fleet/drive_groups.hpp"
#include "tuner/run_error.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace disktune::tuner {
namespace {

namespace fs = std::filesystem;

// The file system mounted on /: the last mount on / is the one in effect.
probe::Mount root_mount(const std::string& proc_root) {
  probe::Mount root;
  for (auto& mount : probe::read_mountinfo(fs::path(proc_root) / "self/mountinfo"))
    if (mount.mount_point == "/") root = std::move(mount);
  return root;
}

// The block device a device number names under `sys_root` (dev/block/MAJ:MIN), or "".
std::string device_of_number(const std::string& sys_root, const std::string& majmin) {
  std::error_code ec;
  const auto by_number = fs::canonical(fs::path(sys_root) / "dev/block" / majmin, ec);
  return ec || majmin.empty() ? "" : by_number.filename().string();
}

// The devices under a stacked root (overlay: a container's, a live system's): the file systems
// holding its upperdir, lowerdir (a ':'-separated list) and workdir, from its super options.
std::vector<std::string> stacked_devices(const probe::Mount& root, const std::string& sys_root) {
  std::vector<std::string> devices;
  std::istringstream options(root.options);
  for (std::string option; std::getline(options, option, ',');) {
    const auto equals = option.find('=');
    const std::string key = option.substr(0, equals);
    if (equals == std::string::npos || (key != "upperdir" && key != "lowerdir" && key != "workdir")) continue;
    std::istringstream dirs(option.substr(equals + 1));
    for (std::string dir; std::getline(dirs, dir, ':');) {
      struct stat st {};
      if (::stat(dir.c_str(), &st) != 0) continue;
      if (auto name = device_of_number(sys_root, probe::dev_number_text(st.st_dev)); !name.empty())
        devices.push_back(std::move(name));
    }
  }
  return devices;
}

// File systems that hold no local disk: a root on one of them leaves every disk free.
bool diskless(const std::string& type) {
  static const std::vector<std::string> kTypes{"tmpfs", "ramfs", "rootfs", "nfs", "nfs4", "cifs", "smb3", "9p", "virtiofs"};
  return std::find(kTypes.begin(), kTypes.end(), type) != kTypes.end();
}

// The kernel names of the block devices / lives on: by its device number, else (btrfs shows an
// anonymous 0:NN) by its source, with every other device of the same btrfs, else (overlay)
// under its layers. Throws RunError(exit 2) when none is found and / is not on a file system
// known to hold no disk (zfs, an overlay on unknown layers): --all must never guess.
std::vector<std::string> root_devices(const std::string& sys_root, const std::string& proc_root) {
  const auto root = root_mount(proc_root);
  if (auto by_number = device_of_number(sys_root, root.majmin); !by_number.empty()) return {by_number};
  const std::string name = probe::source_kernel_name(root.source, sys_root == "/sys");
  if (name.empty()) {
    if (auto stacked = stacked_devices(root, sys_root); !stacked.empty()) return stacked;
    if (diskless(root.type)) return {};
    throw RunError(kExitUsage, "--all: cannot tell which disk holds / (" + (root.type.empty() ? "no mount" : root.type) +
                                   " " + root.source + " on " + root.majmin + "): name the drives to tune instead");
  }
  std::error_code ec;
  std::vector<std::string> devices{name};
  for (const auto& btrfs : fs::directory_iterator(fs::path(sys_root) / "fs/btrfs", ec)) {
    std::vector<std::string> members;
    std::error_code inner;
    for (const auto& device : fs::directory_iterator(btrfs.path() / "devices", inner))
      members.push_back(device.path().filename().string());
    if (std::find(members.begin(), members.end(), name) != members.end())
      devices.insert(devices.end(), members.begin(), members.end());
  }
  return devices;
}

std::vector<std::string> root_disks(const std::string& sys_root, const std::string& proc_root) {
  std::vector<std::string> disks;
  for (const auto& device : root_devices(sys_root, proc_root))
    for (auto& disk : underlying_disks(device, sys_root)) disks.push_back(std::move(disk));
  return disks;
}

std::string first_line(const fs::path& path) {
  const auto text = probe::read_sysfs(path.string());
  return text ? text->substr(0, text->find('\n')) : "";
}

}  // namespace

DriveList free_disks(bool allow_mounted, const std::string& sys_root, const std::string& proc_root) {
  DriveList list;
  const auto under_root = root_disks(sys_root, proc_root);
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(sys_root) / "block", ec))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    const fs::path dir = fs::path(sys_root) / "block" / name;
    if (!fs::exists(dir / "device") || first_line(dir / "size") == "0") continue;  // virtual, or no medium
    if (std::find(under_root.begin(), under_root.end(), name) != under_root.end()) {
      list.skipped.push_back(name + ": holds / (the root file system)");
      continue;
    }
    const auto uses = allow_mounted ? std::vector<std::string>{} : probe::device_uses(name, sys_root, proc_root);
    if (!uses.empty()) {
      list.skipped.push_back(name + ": " + uses.front() + " (--allow-mounted to tune it)");
      continue;
    }
    list.drives.push_back(name);
  }
  return list;
}

}  // namespace disktune::tuner
