// SPDX-License-Identifier: GPL-2.0-or-later
// `disktune verify`: are a report's settings still in effect on its drive, knob by knob.
#pragma once

#include "tuner/run_error.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace disktune::tuner {

/// `verify`'s options.
struct VerifyOptions {
  std::vector<std::string> reports;       ///< verify REPORT... (unused with config_dir)
  std::optional<std::string> config_dir;  ///< --config DIR: every *.json in it (config_reports)
  bool json = false;                      ///< --json: one JSON document on stdout
  std::optional<std::string> journal_path;  ///< --journal FILE: the apply journal to read (one REPORT only)
};

/// `disktune verify REPORT... | --config DIR [--json] [--journal FILE]` (docs/apply.md): for
/// each report (every *.json in DIR with --config, in name order) find its drive by identity
/// (find_drive, read-only, no lock) and read each setting the winner changes. A setting
/// whose live value differs is drift, printed with expected, actual and a cause only from a
/// record read (drift_evidence: the device lock's holder, the apply journal, --journal FILE
/// or the drive's default, udev, the kernel log; with no apply record read, what was found at
/// the journal's path instead; a value equal to the one before the tune is said as such),
/// else "cause unknown". A drive that is absent is reported, not an error. Exit codes: 0
/// every setting of every drive as expected, 1 drift, an absent drive or a setting that
/// cannot be read, 2 bad input: a REPORT that cannot be read or an empty DIR (nothing is
/// checked then), or a *.json entry of DIR that cannot be read (no regular file, a dangling
/// link, not a report: each named on `err`, the others checked and printed).
ExitCode run_verify(const VerifyOptions& options, std::ostream& out, std::ostream& err);

}  // namespace disktune::tuner
