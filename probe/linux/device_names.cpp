// SPDX-License-Identifier: GPL-2.0-or-later
// kernel_name, stable_device_path and the sysfs identity of loop devices and disks.
#include "probe/linux/device_names.hpp"

#include "probe/linux/sysfs.hpp"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <vector>

namespace disktune::probe {
namespace {

namespace fs = std::filesystem;

std::optional<dev_t> block_number(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISBLK(info.st_mode)) return std::nullopt;
  return info.st_rdev;
}

// 0 = ata-, 1 = wwn-, 2 = anything else.
int link_rank(const std::string& name) {
  if (name.rfind("ata-", 0) == 0) return 0;
  if (name.rfind("wwn-", 0) == 0) return 1;
  return 2;
}

}  // namespace

std::string kernel_name(const std::string& dev) {
  if (const auto number = block_number(dev)) {
    std::error_code ec;
    const auto target = fs::read_symlink(sysfs_block_dir(major(*number), minor(*number)), ec);
    if (!ec && !target.filename().empty()) return target.filename().string();
  }
  return fs::path(dev).filename().string();
}

std::optional<std::string> stable_device_path(const std::string& dev,
                                              const std::string& by_id_dir) {
  const auto number = block_number(dev);
  if (!number) return std::nullopt;
  std::vector<std::string> matches;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(by_id_dir, ec)) {
    if (block_number(entry.path().string()) == number) matches.push_back(entry.path().string());
  }
  if (matches.empty()) return std::nullopt;
  std::sort(matches.begin(), matches.end(), [](const std::string& a, const std::string& b) {
    const auto rank_a = link_rank(fs::path(a).filename().string());
    const auto rank_b = link_rank(fs::path(b).filename().string());
    return rank_a != rank_b ? rank_a < rank_b : a < b;
  });
  return matches.front();
}

namespace {

// A sysfs attribute of the block device `dev` (relative to its /sys/dev/block directory).
std::optional<std::string> block_attribute(const std::string& dev, const std::string& attr) {
  const auto number = block_number(dev);
  if (!number) return std::nullopt;
  auto text = read_sysfs(sysfs_block_dir(major(*number), minor(*number)) + "/" + attr);
  if (!text || text->empty()) return std::nullopt;
  return std::move(*text);
}

}  // namespace

std::optional<std::string> loop_backing_file(const std::string& dev) {
  return block_attribute(dev, "loop/backing_file");
}

std::optional<bool> loop_direct_io(const std::string& dev) {
  const auto dio = block_attribute(dev, "loop/dio");
  if (!dio) return std::nullopt;
  return dio->starts_with("1");
}

std::vector<std::string> loops_backed_by(dev_t device, ino_t inode, const std::string& sys_block) {
  std::vector<std::string> loops;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(sys_block, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("loop")) continue;
    const auto backing = read_sysfs((entry.path() / "loop/backing_file").string());
    struct stat st {};
    if (backing && ::stat(backing->c_str(), &st) == 0 && st.st_dev == device && st.st_ino == inode)
      loops.push_back(name);
  }
  std::sort(loops.begin(), loops.end());
  return loops;
}

namespace {

// LOOP_GET_STATUS64 of an attached loop device (opened read-only, nothing read), or nullopt.
std::optional<loop_info64> loop_status(const std::string& dev) {
  if (!loop_backing_file(dev)) return std::nullopt;
  const int fd = ::open(dev.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  loop_info64 info{};
  const bool ok = ::ioctl(fd, LOOP_GET_STATUS64, &info) == 0;
  ::close(fd);
  if (!ok) return std::nullopt;
  return info;
}

}  // namespace

std::optional<std::string> loop_backing_inode(const std::string& dev) {
  const auto status = loop_status(dev);
  if (!status) return std::nullopt;
  const loop_info64& info = *status;
  std::string identity = std::to_string(info.lo_device) + ":" + std::to_string(info.lo_inode);
  // A file deleted and made again can get the freed inode number back (ext4 does): its birth
  // time tells them apart, read at the path when the path still names the file held open.
  struct statx stx {};
  const auto path = loop_backing_file(dev);
  if (path && ::statx(AT_FDCWD, path->c_str(), 0, STATX_INO | STATX_BTIME, &stx) == 0 && stx.stx_ino == info.lo_inode &&
      (stx.stx_mask & STATX_BTIME) != 0)
    identity += ":" + std::to_string(stx.stx_btime.tv_sec) + "." + std::to_string(stx.stx_btime.tv_nsec);
  return identity;
}

std::optional<dev_t> loop_backing_device(const std::string& dev) {
  const auto status = loop_status(dev);
  if (!status) return std::nullopt;
  return static_cast<dev_t>(status->lo_device);  // the kernel's huge_encode_dev: glibc's major()/minor() read it
}

std::optional<dev_t> loop_backing_block_device(const std::string& dev) {
  const auto status = loop_status(dev);
  if (!status || status->lo_rdevice == 0) return std::nullopt;
  return static_cast<dev_t>(status->lo_rdevice);
}

std::optional<std::string> block_wwid(const std::string& dev) {
  if (auto wwid = block_attribute(dev, "wwid")) return wwid;
  return block_attribute(dev, "device/wwid");
}

}  // namespace disktune::probe
