// SPDX-License-Identifier: GPL-2.0-or-later
// live_identity, identity_difference and find_drive.
#include "tuner/device/open_device.hpp"
#include "tuner/keep/drive_match.hpp"

#include "probe/linux/device_names.hpp"
#include "probe/linux/sysfs.hpp"
#include "tuner/device_context.hpp"
#include "tuner/device/device_factory.hpp"
#include "tuner/host/host.hpp"

#include <algorithm>
#include <filesystem>

namespace disktune::tuner {
namespace {

namespace fs = std::filesystem;

void compare(std::string& out, const char* what, const std::string& report, const std::string& live,
             const std::string& path) {
  if (report == live) return;
  out += (out.empty() ? "" : "; ") + std::string(what) + " '" + report + "' (report) vs '" + live + "' (" + path + ")";
}

// /dev/loopN for every loop device whose backing file is `file`.
std::vector<std::string> loops_backed_by(const std::string& file) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/sys/block", ec)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("loop", 0) != 0) continue;
    const std::string dev = "/dev/" + name;
    if (probe::loop_backing_file(dev) == file) found.push_back(dev);
  }
  std::sort(found.begin(), found.end());
  return found;
}

// Whole disks that are no loop, RAM, device-mapper, md, optical or network device.
bool plain_disk_name(const std::string& name) {
  for (const char* prefix : {"loop", "ram", "zram", "dm-", "md", "sr", "nbd"})
    if (name.rfind(prefix, 0) == 0) return false;
  return !name.empty();
}

// DEV/NAME for every plain disk NAME of `sys_block` holding `size_bytes` (sysfs `size`, in
// 512-byte sectors whatever the logical block size), in name order.
std::vector<std::string> disks_of_size(std::uint64_t size_bytes, const std::string& sys_block, const std::string& dev) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(sys_block, ec)) {
    const auto name = entry.path().filename().string();
    if (!plain_disk_name(name)) continue;
    const auto sectors = probe::read_sysfs_number((entry.path() / "size").string());
    if (sectors && *sectors > 0 && static_cast<std::uint64_t>(*sectors) * 512u == size_bytes)
      found.push_back(dev + "/" + name);
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string canonical_or_self(const std::string& path) {
  std::error_code ec;
  const auto real = fs::canonical(path, ec);
  return ec ? path : real.string();
}

}  // namespace

probe::Result<DeviceContext> identified_device(const std::string& path) {
  auto device = make_device(path, probe::DeviceOptions{});
  if (!device) return device.error();
  DeviceContext context;
  context.device = std::move(*device);
  if (auto identify = context.device->identify()) context.identify = std::move(*identify);
  return context;
}

probe::Result<results::DeviceInfo> live_identity(const std::string& path) {
  auto context = identified_device(path);
  if (!context) return context.error();
  return describe_device(*context);
}

std::string identity_difference(const results::DeviceInfo& report, const results::DeviceInfo& live) {
  std::string out;
  compare(out, "model", report.model, live.model, live.path);
  compare(out, "serial", report.serial, live.serial, live.path);
  compare(out, "firmware", report.firmware, live.firmware, live.path);
  compare(out, "size in bytes", std::to_string(report.size_bytes), std::to_string(live.size_bytes), live.path);
  compare(out, "wwid", report.wwid, live.wwid, live.path);
  compare(out, "backing file", report.backing_file, live.backing_file, live.path);
  return out;
}

bool has_stable_identity(const results::DeviceInfo& device) {
  return !device.serial.empty() || !device.wwid.empty() || !device.backing_file.empty();
}

std::vector<std::string> drive_candidates(const results::DeviceInfo& report, const std::string& sys_block,
                                          const std::string& dev) {
  std::vector<std::string> paths;
  if (!report.stable_path.empty()) paths.push_back(report.stable_path);
  if (!report.backing_file.empty())
    for (auto& loop : loops_backed_by(report.backing_file)) paths.push_back(std::move(loop));
  paths.push_back(report.path);
  if (report.backing_file.empty())
    for (auto& disk : disks_of_size(report.size_bytes, sys_block, dev)) paths.push_back(std::move(disk));
  std::vector<std::string> unique, seen;
  for (const auto& p : paths) {
    if (host().device_exists ? !host().device_exists(p) : !fs::exists(p)) continue;
    const auto real = canonical_or_self(p);
    if (std::find(seen.begin(), seen.end(), real) != seen.end()) continue;
    seen.push_back(real);
    unique.push_back(p);
  }
  return unique;
}

FoundDrive find_drive(const results::SavedReport& report, const std::optional<std::string>& named) {
  FoundDrive found;
  if (named) {
    const auto live = live_identity(*named);
    if (!live) {
      found.why_not = *named + " cannot be opened as a block device (" + live.error().message() + ")";
      return found;
    }
    if (const auto diff = identity_difference(report.device, *live); !diff.empty()) {
      found.why_not = *named + " is another drive: " + diff;
      found.other_drive = true;
      return found;
    }
    found.path = *named;
    return found;
  }
  if (!has_stable_identity(report.device)) {
    found.why_not = "the report's drive has no serial, wwid or backing file to be found by (model '" +
                    report.device.model + "', " + std::to_string(report.device.size_bytes) +
                    " bytes): name its device after the report to apply it there";
    return found;
  }
  std::string looked;
  std::vector<std::string> matches;
  for (const auto& candidate : drive_candidates(report.device)) {
    const auto live = live_identity(candidate);
    if (!live) {
      looked += "; " + candidate + ": cannot be opened (" + live.error().message() + ")";
      continue;
    }
    if (const auto diff = identity_difference(report.device, *live); !diff.empty()) {
      looked += "; " + candidate + ": another drive (" + diff + ")";
      continue;
    }
    matches.push_back(candidate);
  }
  // Two loop devices over one file (or two paths the kernel did not tell apart): which one
  // the report meant cannot be known, and both would share one apply journal.
  if (matches.size() > 1) {
    std::string names;
    for (const auto& m : matches) names += (names.empty() ? "" : ", ") + m;
    found.why_not = "several devices have the report's identity (" + names + "): name the DEVICE after the report";
    found.ambiguous = true;
    return found;
  }
  if (matches.size() == 1) {
    found.path = matches.front();
    return found;
  }
  found.why_not = "the drive is absent: no device has its identity (serial '" + report.device.serial + "', wwid '" +
                  report.device.wwid + "', backing file '" + report.device.backing_file + "')" +
                  (looked.empty() ? std::string(": no candidate device exists") : looked);
  return found;
}

}  // namespace disktune::tuner
