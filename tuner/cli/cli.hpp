// SPDX-License-Identifier: GPL-2.0-or-later
// The command line: argv parsed into a Config (Boost.Program_options; README "CLI").
#pragma once

#include "tuner/cli/config.hpp"

namespace disktune::tuner {

/// Parse argv (Boost.Program_options). --help on any command and --version give
/// Command::help / Command::version. Throws UsageError with a one-line reason on bad input
/// (unknown command or option, bad number, unknown setting in --only, ...).
Config parse_command_line(int argc, const char* const argv[]);

}  // namespace disktune::tuner
