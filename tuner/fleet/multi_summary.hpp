// SPDX-License-Identifier: GPL-2.0-or-later
// The machine summary of a multi-drive tune: JSON for tools, a table for the operator.
#pragma once

#include "tuner/fleet/drive_groups.hpp"
#include "tuner/fleet/multi_tune.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <vector>

namespace disktune::tuner {

/// Everything the summary says: the drives as run, their groups and the drives --all left out.
struct MachineRun {
  std::vector<DriveRun> runs;
  std::vector<DriveGroup> groups;
  std::vector<std::string> skipped;
  std::string started_at;   ///< ISO 8601 UTC
  std::string finished_at;
};

/// The machine exit code (multi_tune.hpp): 0 when every drive exited 0, else the worst drive's
/// exit code by severity 4 > 5 > 3 > 2 > 1 > 6 (any other code ranks as 3).
ExitCode machine_exit_code(const std::vector<DriveRun>& runs);

/// The summary (docs/multi-drive.md "Summary"): schema_version 1, started_at, finished_at,
/// exit_code, drives[] (device, key, group, exit_code, outcome, report, log, start_s, end_s,
/// and from the drive's report when it has one: winner changes, keep_baseline, speedup),
/// groups[] (drives, reasons), skipped[].
boost::json::object summary_json(const MachineRun& machine);

/// One line per drive (drive, group, exit code, winner, speedup, outcome, report), then one
/// line per group of several drives with why it was serialised.
std::string summary_table(const MachineRun& machine);

}  // namespace disktune::tuner
