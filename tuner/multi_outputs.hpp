// SPDX-License-Identifier: GPL-2.0-or-later
// Per-drive output paths of a multi-drive tune: a directory or a {drive} placeholder per option.
#pragma once

#include "tuner/config.hpp"

#include <string>
#include <vector>

namespace disktune::tuner {

/// The placeholder a per-drive output path holds, replaced by the drive's key.
inline constexpr std::string_view kDrivePlaceholder = "{drive}";

/// What one drive's worker writes: its output options with their paths, and its log (the
/// worker's stdout and stderr).
struct DriveOutputs {
  std::vector<std::string> options;  ///< "--report", PATH, "--journal", PATH, ...
  std::string report_path;           ///< the JSON report (always written: the summary reads it)
  std::string log_path;              ///< KEY.log in the summary's directory
};

/// The key a drive's per-drive files are named by: the kernel name of a device ("sda",
/// "loop3"), "sim" for sim:, "sim-STEM" for sim:DIR/STEM.EXT.
std::string drive_key(const std::string& device);

/// The summary's path: --summary, else summary.json in the journals' directory
/// (/var/lib/disktune when writable; journal_file.hpp).
std::string summary_path(const Config& config);

/// The outputs of the drive `key` (docs/multi-drive.md "Outputs"): each of --report,
/// --boot-local, --hdparm-conf, --udev-rules, --tuned-profile and --journal given either
/// holds {drive} (replaced by `key`) or names an existing directory (the file is
/// DIR/KEY.json, KEY.boot.local, KEY.hdparm.conf, 60-disktune-KEY.rules, KEY.tuned.conf,
/// KEY.journal); --report defaults to KEY.report.json beside the summary; --journal stays
/// the per-drive default when not given.
/// Throws UsageError for "-" or a path that is neither (one file for several drives).
DriveOutputs drive_outputs(const Config& config, const std::string& key);

}  // namespace disktune::tuner
