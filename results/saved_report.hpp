// SPDX-License-Identifier: GPL-2.0-or-later
// SavedReport: what `apply` and `verify` read back from a tune's JSON report.
#pragma once

#include "probe/core/error.hpp"
#include "probe/settings.hpp"
#include "results/report.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace disktune::results {

/// The parts of a JSON report (docs/report.md, schema 3) that say which drive was tuned and
/// what to set on it.
struct SavedReport {
  std::string file;            ///< where it was read from, for messages
  DeviceInfo device;           ///< path, model, serial, firmware, size_bytes, wwid, backing_file
  probe::Settings baseline;    ///< baseline.settings: the drive's values before the tune
  probe::Settings changes;     ///< winner.changes: what the answer changes (empty: keep the baseline)
  std::optional<bool> restored;  ///< "restored": the tune put back what it found when it ended; nullopt when absent
};

/// Parse report text (`file` names it in messages). Errors, all errc::invalid_argument with
/// op "report FILE: reason": not JSON; schema_version below 3 (no size or backing file to find the
/// drive by: re-run the tune); a SIMULATED drive's (nothing on a real disk to apply);
/// a run that did not complete (no answer); a missing or malformed device, baseline or
/// winner field, or a setting name or value disktune does not know; a device identity string
/// (path, model, serial, firmware, stable_path, wwid, backing_file) holding a control character;
/// with `check_winner`, a winner no tune could have chosen (winner_changes_error). Without it
/// (install's ownership check, uninstall: they need the drive's identity only, and a copy
/// installed before the check must stay removable) the winner is decoded but not judged.
probe::Result<SavedReport> parse_saved_report(std::string_view text, const std::string& file, bool check_winner = true);

}  // namespace disktune::results
