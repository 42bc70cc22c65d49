// SPDX-License-Identifier: GPL-2.0-or-later
// Device usage from mountinfo, swaps and sysfs holders.
#include "probe/watch/device_usage.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

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

void add_mounts(const std::map<std::string, std::string>& devices, const fs::path& mountinfo,
                std::vector<std::string>& uses) {
  std::ifstream in(mountinfo);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, majmin, root, mount_point;
    fields >> id >> parent >> majmin >> root >> mount_point;
    if (const auto it = devices.find(majmin); it != devices.end())
      uses.push_back(it->second + " is mounted on " + mount_point);
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
    const std::string majmin = std::to_string(major(st.st_rdev)) + ":" + std::to_string(minor(st.st_rdev));
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

}  // namespace

std::vector<std::string> device_uses(const std::string& kernel_name, const std::string& sys_root,
                                     const std::string& proc_root) {
  const fs::path sys_block = fs::path(sys_root) / "block";
  const auto devices = disk_and_partitions(kernel_name, sys_block);
  std::vector<std::string> uses;
  add_mounts(devices, fs::path(proc_root) / "self" / "mountinfo", uses);
  add_swaps(devices, fs::path(proc_root) / "swaps", uses);
  add_holders(kernel_name, devices, sys_block, uses);
  return uses;
}

}  // namespace disktune::probe
