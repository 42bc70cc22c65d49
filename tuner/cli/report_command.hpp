// SPDX-License-Identifier: GPL-2.0-or-later
// `disktune report REPORT --html FILE`: the HTML report of a saved JSON report.
#pragma once

#include "tuner/cli/commands.hpp"
#include "tuner/cli/config.hpp"

namespace disktune::tuner {

/// Read config.reports[0] (a JSON report of any schema, checked with check_input_file), write
/// its HTML report (results/html_report.hpp, with the install lines of its answer) to
/// config.output.html_path ("-" = stdout). Throws RunError(exit 2) for an unreadable file or one that
/// is no JSON object, RunError as write_output does for the output.
ExitCode run_report(const Config& config);

}  // namespace disktune::tuner
