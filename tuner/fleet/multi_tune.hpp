// SPDX-License-Identifier: GPL-2.0-or-later
// A tune of several drives: one worker process per drive, groups sharing hardware one after another.
#pragma once

#include "tuner/fleet/multi_outputs.hpp"
#include "tuner/run_error.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace disktune::tuner {

/// One drive of a multi-drive tune, as its worker ran (or did not run).
struct DriveRun {
  std::string device;              ///< as named (/dev/loop0), or /dev/KEY for --all
  std::string key;                 ///< multi_outputs.hpp drive_key
  std::size_t group = 0;           ///< index into the groups (drive_groups.hpp)
  std::vector<std::string> argv;   ///< the worker's command line
  std::string report_path;
  std::string log_path;
  std::string journal_path;        ///< the worker's --journal; "" for its default
  std::vector<std::string> output_options;  ///< the worker's files: "--report", PATH, "--journal", PATH, ...
  int exit_code = -1;              ///< the worker's exit code; -1 before it ran
  std::string outcome;             ///< "completed", "exit 3: ...", "killed by signal 9", "not run: ..."
  double start_s = 0;              ///< seconds since the multi-drive tune began
  double end_s = 0;
};

/// `disktune tune DEV DEV...` / `tune --all` (docs/multi-drive.md): resolves the drives,
/// groups the ones sharing hardware, re-executes /proc/self/exe as one single-drive tune per
/// drive (stdout and stderr to the drive's log), groups concurrently and the drives of a
/// group one after another; forwards SIGINT/SIGTERM/SIGHUP to every running worker and
/// starts none after; writes the summary (JSON) and prints the table to `out`.
/// Returns the machine exit code: 0 when every drive completed with an answer (0), else the
/// worst drive's by severity 4 > 5 > 3 > 2 > 1 > 6 (a drive not run counts as 1, a worker
/// killed by a signal as 4). Throws UsageError for no drive, a drive named twice, or one
/// output file for several drives.
ExitCode run_multi_tune(const FleetOptions& fleet, std::ostream& out, std::ostream& err);

}  // namespace disktune::tuner
