// SPDX-License-Identifier: GPL-2.0-or-later
// Per-drive output paths of a multi-drive tune: a directory or a {drive} placeholder per option.
#pragma once

#include "tuner/run_error.hpp"
#include "tuner/device_context.hpp"
#include "tuner/host/output_file.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::tuner {

/// What a tune of several drives is asked to do (docs/multi-drive.md).
struct FleetOptions {
  std::vector<std::string> devices;         ///< tune DEV DEV...: every DEVICE as given
  bool all_drives = false;                  ///< --all: every free whole disk (drive_list.hpp free_disks)
  bool allow_mounted = false;               ///< --allow-mounted: --all takes disks in use too
  /// The option tokens as given, less DEVICE, --all, --summary and the per-drive outputs:
  /// what each drive's worker is run with.
  std::vector<std::string> worker_options;
  OutputPaths output;                       ///< --summary, and the per-drive outputs (a directory or a {drive} path)
  std::optional<std::string> journal_path;  ///< --journal: a directory or a {drive} path
  /// argv[0] as the user ran disktune: each worker (this binary, /proc/self/exe) runs under it,
  /// so the commands its hints print name the program a person can run again.
  std::string program = "disktune";
};

/// The placeholder a per-drive output path holds, replaced by the drive's key.
inline constexpr std::string_view kDrivePlaceholder = "{drive}";

/// The tune options naming a file each drive writes for itself (without "--"): the one list
/// both the command line (which keeps them out of the options every worker gets as given)
/// and drive_outputs (which gives each worker its own path) use, so an output option cannot
/// be forgotten by one of them. cli_test checks every "write ... here" option of tune is here.
inline constexpr std::array<std::string_view, 7> kPerDriveOutputs = {
    "report", "boot-local", "hdparm-conf", "udev-rules", "tuned-profile", "html", "journal"};

/// What one drive's worker writes: its output options with their paths, and its log (the
/// worker's stdout and stderr).
struct DriveOutputs {
  std::vector<std::string> options;  ///< "--report", PATH, "--journal", PATH, ...
  std::string report_path;           ///< the JSON report (always written: the summary reads it)
  std::string log_path;              ///< KEY.log in the summary's directory
  std::string journal_path;          ///< the --journal path given to the worker; "" for its default
};

/// The key a drive's per-drive files are named by: the kernel name of a device ("sda",
/// "loop3"), "sim" for sim:, "sim-STEM" for sim:DIR/STEM.EXT.
std::string drive_key(const std::string& device);

/// The summary's path: --summary, else summary.json in the journals' directory
/// (/var/lib/disktune when writable; journal_file.hpp).
std::string summary_path(const FleetOptions& fleet);

/// The outputs of the drive `key` (docs/multi-drive.md "Outputs"): each kPerDriveOutputs
/// option given either holds {drive} (every one replaced by `key`) or names an existing
/// directory (the file is DIR/KEY.json, KEY.boot.local, KEY.hdparm.conf,
/// 69-disktune-KEY.rules (after 60-persistent-storage, as install names it), KEY.tuned.conf, KEY.html, KEY.journal); --report defaults to KEY.report.json beside the summary; --journal stays
/// the per-drive default when not given.
/// Throws UsageError for "-" or a path that is neither (one file for several drives).
DriveOutputs drive_outputs(const FleetOptions& fleet, const std::string& key);

}  // namespace disktune::tuner
