// SPDX-License-Identifier: GPL-2.0-or-later
// `disktune verify`: are a report's settings still in effect on its drive, knob by knob.
#pragma once

#include "tuner/config.hpp"
#include "tuner/run_error.hpp"

#include <ostream>

namespace disktune::tuner {

/// `disktune verify REPORT... | --config DIR [--json]` (README "Watching for drift"): for
/// each report (every *.json in DIR with --config, in name order) find its drive by identity
/// (find_drive, read-only, no lock) and read each setting the winner changes. A setting
/// whose live value differs is drift, printed with expected, actual and a cause only where
/// disktune has evidence (its apply journal's restore record; a value equal to the one
/// before the tune is said as such), else "cause unknown". A drive that is absent is
/// reported, not an error. Exit codes: 0 every setting of every drive as expected, 1 drift,
/// an absent drive or a setting that cannot be read, 2 bad input (a report that cannot be
/// read, an empty DIR; nothing is checked then).
ExitCode run_verify(const Config& config, std::ostream& out, std::ostream& err);

}  // namespace disktune::tuner
