// SPDX-License-Identifier: GPL-2.0-or-later
// Finding the drive a report was made on by its stable identity, never by its kernel name alone.
#pragma once

#include "probe/core/error.hpp"
#include "results/report.hpp"
#include "results/saved_report.hpp"
#include "tuner/device_context.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace disktune::tuner {

/// `path` opened with its identify data only (make_device, Device::identify): no settings
/// snapshot, no capability probe, nothing written. context.identify stays empty for a device
/// that answers no identify. Errors: make_device's (no such file, not a block device, a
/// partition, open errors).
probe::Result<DeviceContext> identified_device(const std::string& path);

/// A live device's identity as a report keeps it (results::DeviceInfo: path, model, serial,
/// firmware from IDENTIFY words 10-19, 23-26, 27-46; size from BLKGETSIZE64; wwid and a loop
/// device's backing file from sysfs; the /dev/disk/by-id name). Opens `path` read-only and
/// changes nothing. Error: why it cannot be opened (absent, not a block device, a partition).
probe::Result<results::DeviceInfo> live_identity(const std::string& path);

/// What differs between the report's drive and a live one, as
/// "serial 'A' (report) vs 'B' (/dev/sdb)"; model, serial, firmware, size_bytes, wwid and
/// backing_file are compared. Empty when they are the same drive.
std::string identity_difference(const results::DeviceInfo& report, const results::DeviceInfo& live);

/// True when the identity names one drive and no other: a serial, a wwid or a loop
/// device's backing file (model and size alone fit every drive of a model).
bool has_stable_identity(const results::DeviceInfo& device);

/// Where to look for the report's drive when no DEVICE is named, in order: its
/// /dev/disk/by-id name, the loop devices whose backing file is the report's, the path the
/// report was made on, then (for a drive that is no loop device) every other whole disk of
/// `sys_block` whose size (sysfs `size` x 512) is the report's: at boot a kernel name can
/// move to another disk before its by-id link exists (each candidate's identity is checked
/// by find_drive; the size filter reads sysfs only, so no other disk is opened). Paths under
/// `dev` that exist, without duplicates. `sys_block`, `dev`: for tests.
std::vector<std::string> drive_candidates(const results::DeviceInfo& report, const std::string& sys_block = "/sys/block",
                                          const std::string& dev = "/dev");

/// The device that is the report's drive: `named` when given and it matches; else the
/// one of drive_candidates that matches. Errors (the message names what was looked at and
/// why each failed): a named device that is another drive ("serial 'A' (report) vs ...");
/// no candidate matches (the drive is absent); several match (ambiguous: name the DEVICE). A report without a stable identity
/// (has_stable_identity) matches only a named device.
struct FoundDrive {
  std::optional<std::string> path;  ///< the matching device; nullopt: not found
  std::string why_not;              ///< when not found: what was looked at and why each failed
  bool other_drive = false;         ///< `named` was given and is another drive
  bool ambiguous = false;           ///< several devices have the identity (two loops over one file)
};
FoundDrive find_drive(const results::SavedReport& report, const std::optional<std::string>& named);

}  // namespace disktune::tuner
