// SPDX-License-Identifier: GPL-2.0-or-later
// Why a setting drifted, said only from evidence disktune can read (issue 12 item 5).
#pragma once

#include <ctime>
#include <optional>
#include <string>

namespace disktune::tuner {

/// What the drive's apply journal and the system record about it.
struct DriftEvidence {
  std::string restored_at;         ///< a `disktune restore` after the last apply (UTC ISO 8601); "" none
  std::string applied_at;          ///< the last completed apply (UTC ISO 8601); "" none
  std::string applied_boot_id;     ///< the boot id that apply ran in
  std::string current_boot_id;     ///< /proc/sys/kernel/random/boot_id now
  std::optional<std::time_t> udev_event_at;  ///< mtime of udev's database entry of the device, if any
};

/// The cause of a drift the evidence shows, or "" when it shows none ("cause unknown"
/// is the caller's): a restore record ("'disktune restore' at T put back ..."); an apply in
/// another boot ("the machine restarted since the apply at T (boot id changed) and nothing
/// re-applied it"); udev processing an event for the device after the apply ("udev handled
/// an event for the device at T, after the apply at T0: a change event (revalidation, a
/// rule) or a re-add"). Timestamps compared at whole seconds, UTC.
std::string drift_cause(const DriftEvidence& evidence);

/// "2026-12-01T23:05:00Z" as a time_t (UTC); nullopt when it is not that form.
std::optional<std::time_t> parse_utc(const std::string& text);

}  // namespace disktune::tuner
