// SPDX-License-Identifier: GPL-2.0-or-later
// The command-line grammar: the usage text and one Boost.Program_options table per subcommand.
// Values are declared as strings and checked by cli.cpp (cli_numbers.hpp), so a bad number is
// reported with its accepted range instead of Boost's generic "invalid option value".
#pragma once

#include "tuner/cli/config.hpp"

#include <boost/program_options/options_description.hpp>

#include <optional>
#include <string>

namespace disktune::tuner {

/// The top-level usage text (README "CLI"): every command with its options, one per line group.
/// Printed by `disktune --help` and, on stderr, when no command is given.
const char* usage_text();

/// The subcommand called `name` ("identify", "plan", ..., "evaluate"); nullopt for any other
/// text (the caller reports it as a usage error naming the commands).
std::optional<Command> command_from_name(const std::string& name);

/// Every option `command` takes, with its help text and string default, in the order
/// `disktune COMMAND --help` lists them. The positional DEVICE / REPORT arguments are added by
/// the parser, not here. Never throws for a valid Command.
boost::program_options::options_description command_options(Command command);

}  // namespace disktune::tuner
