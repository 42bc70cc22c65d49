// SPDX-License-Identifier: GPL-2.0-or-later
// disktune entry point: parse the command line, run it, map the outcome to an exit code.
#include "tuner/host/closed_stdio.hpp"
#include "tuner/cli/cli.hpp"
#include "tuner/cli/commands.hpp"
#include "tuner/host/fd_limit.hpp"

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  using namespace disktune::tuner;
  const ClosedStdio closed = reopen_closed_stdio();  // first: before any file is opened
  try {
    const Config config = parse_command_line(argc, argv);
    ensure_open_file_limit();  // before any device is opened: a restore must never lack a descriptor
    const ExitCode code = run_command(config, std::cout, std::cerr);
    return closed.out ? results_lost(config, code) : code;
  } catch (const UsageError& e) {
    std::cerr << "disktune: " << e.what() << " (see 'disktune --help')\n";
    return kExitUsage;
  } catch (const RunError& e) {
    std::cerr << "disktune: " << e.what() << '\n';
    return e.code();
  } catch (const std::exception& e) {
    std::cerr << "disktune: internal error: " << e.what() << '\n';
    return kExitDevice;
  }
}
