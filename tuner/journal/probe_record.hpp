// SPDX-License-Identifier: GPL-2.0-or-later
// Probe records: a device's original settings, kept next to its lock while a probe writes to it.
#pragma once

#include "tuner/device_context.hpp"
#include "tuner/host/device_lock.hpp"

#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace disktune::tuner {

/// The probe record of `device`: lock_dir/MAJ:MIN.probe, next to its lock (device_lock.hpp).
/// nullopt for sim: devices, paths that are not block devices, and when lock_dir does not
/// exist (not root: no lock file either).
std::optional<std::string> probe_record_path(const std::string& device, const std::string& lock_dir = host().lock_dir);

/// Record `context`'s original settings and scheduler tunables in its probe record (one
/// journal start record, fsync'd), run `probe`, then remove the record. A command killed
/// while `probe` writes (the capability probe writes nr_requests under every scheduler)
/// leaves the record for the next command that opens the device (recover_probe_record).
/// Without a record path just runs `probe`. Throws RunError(3) when the record cannot be written.
void with_probe_record(const DeviceContext& context, const std::string& lock_dir, const std::function<void()>& probe);

/// A probe record left by a command killed mid-probe: put back the settings and tunables it
/// holds (read back), say so on `log` and remove it. A record of another drive (another
/// model, serial, size or diskseq behind the same device number, e.g. a re-attached loop device) or
/// a torn one (the kill came before the probe wrote anything) is only removed, with a
/// note. Call under the device lock, before the original settings are read. Returns true
/// when settings were restored. Throws RunError(4) when they cannot be (the record stays).
bool recover_probe_record(DeviceContext& context, const std::string& lock_dir, std::ostream& log);

}  // namespace disktune::tuner
