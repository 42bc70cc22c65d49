// SPDX-License-Identifier: GPL-2.0-or-later
// A loop device over a FUSE file is EMULATED.
#include "tuner/host/emulation.hpp"

#include "probe/core/text.hpp"
#include "probe/linux/blkio_cap.hpp"
#include "probe/linux/device_names.hpp"
#include "probe/watch/mountinfo.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>

namespace disktune::tuner {

namespace {

std::string majmin_of(dev_t device) { return std::to_string(major(device)) + ":" + std::to_string(minor(device)); }

// "maj:min" of the file system holding the file the loop device holds open; "" for no loop
// device, and for one over a block device (lo_device is then /dev's file system, not what it reads).
std::string backing_majmin(const std::string& device_path) {
  if (probe::loop_backing_block_device(device_path)) return {};
  const auto device = probe::loop_backing_device(device_path);
  return device ? majmin_of(*device) : std::string();
}

// The note for a loop device over another block device (a loop over a loop whose file is on
// tmpfs reads memory all the same): that device's own note, up to a few levels down.
// By the device number the loop holds (lo_rdevice) and /sys/dev/block, never a stat of its
// backing path (a stopped FUSE server would make it wait).
std::string stacked_note(const std::string& device_path, int depth) {
  const auto device = probe::loop_backing_block_device(device_path);
  if (depth >= 8 || !device) return {};
  std::error_code ec;
  const auto target = std::filesystem::read_symlink("/sys/dev/block/" + majmin_of(*device), ec);
  if (ec) return {};
  const std::string backing = "/dev/" + target.filename().string();
  const std::string inner = page_cache_note(backing, depth + 1);
  return inner.empty() ? std::string() : device_path + " reads " + backing + ": " + inner;
}

// "its cgroup's read cap of 190.7 MB/s and 100 IOPS: ..." for a device this process's cgroup
// caps; nullopt when none does.
std::optional<std::string> own_cap(const std::string& device_path) {
  struct stat st {};
  if (::stat(device_path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return std::nullopt;
  const auto cap = probe::own_read_cap(majmin_of(st.st_rdev));
  if (!cap) return std::nullopt;
  std::string text = "its cgroup's read cap of ";
  if (cap->bytes_per_s) text += probe::printf_number("%.1f", static_cast<double>(*cap->bytes_per_s) / (1024.0 * 1024.0)) + " MB/s";
  if (cap->bytes_per_s && cap->ios_per_s) text += " and ";
  if (cap->ios_per_s) text += std::to_string(*cap->ios_per_s) + " IOPS";
  return text + ": its figures are that cap's timing, not a disk's (README: the test beds)";
}

}  // namespace

// By the device number the loop holds, not a stat of its backing_file path: that path may
// name another file now (a FUSE mount over a plain loop's directory made it "EMULATED"), and a
// stat through a stopped FUSE server would wait for it.
std::string loop_emulation(const std::string& device_path) {
  const std::string majmin = backing_majmin(device_path);
  return majmin.empty() ? std::string() : probe::fuse_mount_type(probe::read_mountinfo("/proc/self/mountinfo"), majmin);
}

std::string device_label(const std::string& device_path) {
  return loop_emulation(device_path).empty() ? device_path : device_path + " [EMULATED drive]";
}


std::string page_cache_note(const probe::HeldName& device) {
  const std::string note = page_cache_note(device.path, 0);
  // The note names the held descriptor's /proc path where it names the device itself.
  if (!note.starts_with(device.path)) return note;
  return device.shown + note.substr(device.path.size());
}

std::string page_cache_note(const std::string& device_path, int depth) {
  // tmpfs and ramfs keep their files in memory: direct I/O (dio 1) reads memory there too.
  const std::string majmin = backing_majmin(device_path);
  const std::string type = majmin.empty() ? std::string() : probe::mount_type(probe::read_mountinfo("/proc/self/mountinfo"), majmin);
  if (type == "tmpfs" || type == "ramfs")
    return device_path + "'s backing file is on " + type + " (memory): whatever its settings, it reads at memory "
                         "speed unless a throttle caps it, so its figures and answer say nothing about a disk "
                         "(README: the test beds)";
  if (probe::loop_direct_io(device_path).value_or(true)) return stacked_note(device_path, depth);
  // A cgroup's read cap gives it a disk's timing (the throttled test bed): said, not warned against.
  if (const auto cap = own_cap(device_path)) return device_path + " reads under " + *cap;
  return device_path + " reads its backing file through the page cache (loop/dio 0): unless a throttle caps "
                       "it, it reads at memory speed and varies widely from run to run, so its figures and answer "
                       "say little about a disk (README: the test beds)";
}

}  // namespace disktune::tuner
