// SPDX-License-Identifier: GPL-2.0-or-later
// The commands (identify, plan, bench, tune, restore, apply, verify, install, uninstall, report,
// evaluate, help, version), dispatched from one Config; each returns its exit code.
#pragma once

#include "tuner/cli/config.hpp"
#include "tuner/run_error.hpp"

#include <ostream>

namespace disktune::tuner {

/// Run the command `config` names; text or JSON to `out`, progress and errors to `err`.
/// Throws RunError or UsageError for the caller (main) to map to an exit code.
ExitCode run_command(const Config& config, std::ostream& out, std::ostream& err);

/// The exit code of a command whose standard output was closed when it started (its
/// results went to /dev/null): `code` after a failure, or for `restore` (whose messages go
/// to stderr), else kExitUsage with a line on stderr, as for a closed pipe (README "Exit codes").
ExitCode results_lost(const Config& config, ExitCode code);

}  // namespace disktune::tuner
