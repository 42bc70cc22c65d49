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
};

/// `disktune verify REPORT... | --config DIR [--json]` (README "Watching for drift"): for
/// each report (every *.json in DIR with --config, in name order) find its drive by identity
/// (find_drive, read-only, no lock) and read each setting the winner changes. A setting
/// whose live value differs is drift, printed with expected, actual and a cause only where
/// disktune has evidence (its apply journal's restore record; a value equal to the one
/// before the tune is said as such), else "cause unknown". A drive that is absent is
/// reported, not an error. Exit codes: 0 every setting of every drive as expected, 1 drift,
/// an absent drive or a setting that cannot be read, 2 bad input (a report that cannot be
/// read, an empty DIR; nothing is checked then).
ExitCode run_verify(const VerifyOptions& options, std::ostream& out, std::ostream& err);

}  // namespace disktune::tuner
