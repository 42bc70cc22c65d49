// SPDX-License-Identifier: GPL-2.0-or-later
// Drive groups: the hardware each drive sits on (disks, ATA ports, file systems), from sysfs.
#include "tuner/fleet/drive_groups.hpp"

#include "probe/core/text.hpp"
#include "probe/linux/sysfs.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <numeric>
#include <optional>
#include <regex>

namespace disktune::tuner {
namespace {

namespace fs = std::filesystem;

// One piece of hardware a drive's reads pass through, and how a pair sharing it is explained.
struct Hardware {
  std::string key;     // "fs:8:1", "disk:sda", "ata:ata1"
  std::string reason;  // "over one disk (sda)"
};


std::optional<fs::path> canonical_dir(const fs::path& path) {
  std::error_code ec;
  auto dir = fs::canonical(path, ec);
  if (ec) return std::nullopt;
  return dir;
}

// A block device's sysfs directory: class/block covers partitions, block/ whole devices only.
std::optional<fs::path> block_dir(const fs::path& sys, const std::string& name) {
  if (auto dir = canonical_dir(sys / "class/block" / name)) return dir;
  return canonical_dir(sys / "block" / name);
}

// The whole disks under a block device's directory: itself, its parent (a partition) or,
// recursively, the devices under slaves/ (dm, md).
void base_disks(const fs::path& dir, std::vector<fs::path>& disks, int depth = 0) {
  std::error_code ec;
  bool stacked = false;
  if (depth < 16)
    for (const auto& slave : fs::directory_iterator(dir / "slaves", ec))
      if (const auto slave_dir = canonical_dir(slave.path())) {
        stacked = true;
        base_disks(*slave_dir, disks, depth + 1);
      }
  if (stacked) return;
  disks.push_back(fs::exists(dir / "partition") ? dir.parent_path() : dir);
}

// The ataN port directory on a disk's device path (libata-transport.c names ports "ataN").
std::optional<std::string> ata_port(const fs::path& disk_dir) {
  static const std::regex port("ata[0-9]+");
  std::optional<std::string> found;
  for (const auto& part : disk_dir)
    if (std::regex_match(part.string(), port)) found = part.string();
  return found;
}

void add_disks(const std::vector<fs::path>& disks, std::vector<Hardware>& hardware) {
  for (const auto& disk : disks) {
    const auto name = disk.filename().string();
    hardware.push_back({"disk:" + name, "over one disk (" + name + ")"});
  }
  for (const auto& disk : disks)
    if (const auto port = ata_port(disk)) hardware.push_back({"ata:" + *port, "on one ATA channel (" + *port + ")"});
}

// The disks holding a loop device's backing file: the block device it is, or the one whose
// file system holds it (sysfs dev/block/MAJ:MIN; none for tmpfs and other virtual ones).
void add_backing(const fs::path& sys, const fs::path& dir, std::vector<Hardware>& hardware,
                 std::vector<fs::path>& disks) {
  const auto backing = probe::read_sysfs((dir / "loop/backing_file").string());
  if (!backing || backing->empty()) return;
  const std::string& file = *backing;
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return;
  const dev_t holder = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
  if (!S_ISBLK(st.st_mode))
    hardware.push_back({"fs:" + probe::dev_number_text(holder), "backing files on one file system (st_dev " + probe::dev_number_text(holder) + ")"});
  if (const auto holder_dir = canonical_dir(sys / "dev/block" / probe::dev_number_text(holder))) base_disks(*holder_dir, disks);
}

// Everything `name`'s reads pass through, the most specific first (the reason a pair gets).
std::vector<Hardware> hardware_of(const fs::path& sys, const std::string& name) {
  std::vector<Hardware> hardware;
  const auto dir = block_dir(sys, name);
  if (!dir) return {{"disk:" + name, "over one disk (" + name + ")"}};
  std::vector<fs::path> disks;
  base_disks(*dir, disks);
  add_backing(sys, *dir, hardware, disks);
  add_disks(disks, hardware);
  return hardware;
}

std::optional<std::string> shared_reason(const std::vector<Hardware>& a, const std::vector<Hardware>& b) {
  for (const auto& mine : a)
    for (const auto& theirs : b)
      if (mine.key == theirs.key) return mine.reason;
  return std::nullopt;
}

std::size_t find_root(std::vector<std::size_t>& parent, std::size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

std::vector<std::string> underlying_disks(const std::string& kernel_name, const std::string& sys_root) {
  const auto dir = block_dir(sys_root, kernel_name);
  if (!dir) return {kernel_name};
  std::vector<fs::path> disks;
  base_disks(*dir, disks);
  std::vector<std::string> names;
  for (const auto& disk : disks) names.push_back(disk.filename().string());
  return names;
}

std::vector<DriveGroup> group_drives(const std::vector<std::string>& kernel_names, const std::string& sys_root) {
  std::vector<std::vector<Hardware>> hardware;
  for (const auto& name : kernel_names) hardware.push_back(hardware_of(sys_root, name));
  std::vector<std::size_t> parent(kernel_names.size());
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  std::vector<std::pair<std::size_t, std::string>> reasons;  // (a drive of the pair, sentence)
  for (std::size_t i = 0; i < kernel_names.size(); ++i)
    for (std::size_t j = i + 1; j < kernel_names.size(); ++j)
      if (const auto reason = shared_reason(hardware[i], hardware[j])) {
        parent[find_root(parent, j)] = find_root(parent, i);
        reasons.emplace_back(i, kernel_names[i] + " and " + kernel_names[j] + ": " + *reason);
      }
  std::vector<DriveGroup> groups;
  std::vector<std::size_t> group_of_root(kernel_names.size(), kernel_names.size());
  for (std::size_t i = 0; i < kernel_names.size(); ++i) {
    auto& slot = group_of_root[find_root(parent, i)];
    if (slot == kernel_names.size()) {
      slot = groups.size();
      groups.emplace_back();
    }
    groups[slot].drives.push_back(kernel_names[i]);
  }
  for (const auto& [drive, sentence] : reasons) groups[group_of_root[find_root(parent, drive)]].reasons.push_back(sentence);
  return groups;
}

}  // namespace disktune::tuner
