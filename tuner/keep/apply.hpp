// SPDX-License-Identifier: GPL-2.0-or-later
// `disktune apply`: a report's answer written to the drive it names, journaled, read back.
#pragma once

#include "results/journal.hpp"
#include "results/saved_report.hpp"
#include "tuner/device_context.hpp"
#include "tuner/run_error.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace disktune::tuner {

/// Read and parse a report file given as `option` (check_input_file first: a FIFO or a
/// directory is refused). Throws RunError(exit 2) naming the file and the reason.
/// `check_winner`: as results::parse_saved_report (uninstall reads the identity only).
results::SavedReport read_report(const std::string& option, const std::string& path, bool check_winner = true);

/// `apply`'s options (README "Keeping the result").
struct ApplyOptions {
  std::string report;                       ///< apply REPORT (unused with config_dir)
  std::optional<std::string> config_dir;    ///< --config DIR: every *.json in it (config_reports)
  DeviceRequest device;                     ///< DEVICE when device_named; --allow-mounted, --seed, --sim-profile
  bool device_named = false;                ///< a DEVICE was given after REPORT: it must be the report's drive
  std::optional<std::string> journal_path;  ///< --journal FILE (default apply_journal_path)
};

/// The apply journal of `context`'s device: `journal_path` (--journal) when given, else default_journal_path
/// of the drive's key with ".apply" (a loop device by its backing file, not its kernel
/// name). Apart from the tune journal, so a tune never resumes or rolls back an apply.
std::string apply_journal_path(const std::optional<std::string>& journal_path, const DeviceRequest& device,
                               const DeviceContext& context);

/// `disktune apply REPORT [DEVICE]` (README "Keeping the result"): find the report's drive
/// by its identity (find_drive; a named DEVICE must be that drive), refuse a disk in use
/// unless --allow-mounted, then under the device lock: a start record with the values found
/// (kept from the first apply while an apply is in effect, so `restore` goes back to the
/// values before the first change), an intent record, the winner's changes written through
/// the SettingsWriter (every setting read back), a done record. A change that does not read back
/// puts the values found back and is an error naming it. Exit codes: 0 applied (or nothing
/// to apply: the report keeps the baseline), 2 bad input or another drive, 3 drive absent or
/// a device error, 4 the values found could not be put back after a failed apply.
/// With --config DIR: every report of DIR (config_reports); an absent drive is said and
/// skipped (a removed disk must not fail the boot unit), a failing one, or an entry that
/// cannot be read (exit 2: a FIFO, a directory, a dangling link, not a report), is named on
/// `err` and does not stop the others; the exit code is the first failure's, 0 when every
/// present drive was applied.
ExitCode run_apply(const ApplyOptions& options, std::ostream& out, std::ostream& err);

/// Every entry of `dir` named *.json (--config DIR of apply and verify), in name order,
/// whatever its type: the caller reads each with read_report, which refuses (naming it and
/// why, never opening it) one that is no regular file. Throws RunError(exit 2) naming DIR
/// when it cannot be read or holds none.
std::vector<std::string> config_reports(const std::string& dir);

/// The state of `context`'s device's apply journal (apply_journal_path without --journal);
/// nullopt when there is none or it cannot be read.
std::optional<results::JournalState> apply_journal_state(const DeviceRequest& device, const DeviceContext& context);

}  // namespace disktune::tuner
