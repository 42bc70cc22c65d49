// SPDX-License-Identifier: GPL-2.0-or-later
// The four subcommands: identify, plan, bench, tune; each returns its exit code.
#pragma once

#include "tuner/config.hpp"
#include "tuner/run_error.hpp"

#include <ostream>

namespace disktune::tuner {

/// Run the command `config` names; text or JSON to `out`, progress and errors to `err`.
/// Throws RunError or UsageError for the caller (main) to map to an exit code.
ExitCode run_command(const Config& config, std::ostream& out, std::ostream& err);

}  // namespace disktune::tuner
