// SPDX-License-Identifier: GPL-2.0-or-later
// A loop device over a FUSE file is EMULATED.
#include "tuner/host/emulation.hpp"

#include "probe/linux/device_names.hpp"
#include "probe/watch/mountinfo.hpp"

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
  return device_path + " reads its backing file through the page cache (loop/dio 0): unless a throttle caps "
                       "it, it reads at memory speed and varies widely from run to run, so its figures and answer "
                       "say little about a disk (README: the test beds)";
}

}  // namespace disktune::tuner
