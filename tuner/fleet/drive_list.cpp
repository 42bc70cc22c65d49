// SPDX-License-Identifier: GPL-2.0-or-later
// tune --all: /sys/block's whole disks, less the root file system's and the ones in use.
#include "tuner/fleet/drive_list.hpp"

#include "probe/linux/sysfs.hpp"
#include "probe/watch/device_usage.hpp"
#include "probe/watch/mountinfo.hpp"
#include "tuner/fleet/drive_groups.hpp"

#include <algorithm>
#include <filesystem>

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

// The kernel names of the block devices / lives on: by its device number, else (btrfs shows an
// anonymous 0:NN) by its source, with every other device of the same btrfs.
std::vector<std::string> root_devices(const std::string& sys_root, const std::string& proc_root) {
  const auto root = root_mount(proc_root);
  std::error_code ec;
  const auto by_number = fs::canonical(fs::path(sys_root) / "dev/block" / root.majmin, ec);
  if (!ec && !root.majmin.empty()) return {by_number.filename().string()};
  const std::string name = probe::source_kernel_name(root.source, sys_root == "/sys");
  if (name.empty()) return {};
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
