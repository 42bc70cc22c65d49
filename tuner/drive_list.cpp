// SPDX-License-Identifier: GPL-2.0-or-later
// tune --all: /sys/block's whole disks, less the root file system's and the ones in use.
#include "tuner/drive_list.hpp"

#include "probe/watch/device_usage.hpp"
#include "tuner/drive_groups.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace disktune::tuner {
namespace {

namespace fs = std::filesystem;

// The MAJ:MIN of the file system mounted on / (mountinfo field 3 of mount point "/").
std::string root_device(const std::string& proc_root) {
  std::ifstream in(fs::path(proc_root) / "self/mountinfo");
  std::string root;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, majmin, mount_root, mount_point;
    fields >> id >> parent >> majmin >> mount_root >> mount_point;
    if (mount_point == "/") root = majmin;  // the last mount on / is the one in effect
  }
  return root;
}

std::vector<std::string> root_disks(const std::string& sys_root, const std::string& proc_root) {
  std::error_code ec;
  const auto dir = fs::canonical(fs::path(sys_root) / "dev/block" / root_device(proc_root), ec);
  if (ec) return {};
  return underlying_disks(dir.filename().string(), sys_root);
}

std::string first_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
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
