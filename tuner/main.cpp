// SPDX-License-Identifier: GPL-2.0-or-later
// disktune entry point: parse the command line, run it, map the outcome to an exit code.
#include "probe/core/text.hpp"
#include "tuner/host/closed_stdio.hpp"
#include "tuner/cli/cli.hpp"
#include "tuner/cli/commands.hpp"
#include "tuner/host/fd_limit.hpp"
#include "tuner/host/shell_word.hpp"

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  using namespace disktune::tuner;
  const ClosedStdio closed = reopen_closed_stdio();  // first: before any file is opened
  if (argc > 0 && argv[0] != nullptr) set_program_word(argv[0]);  // the commands it prints run this binary
  try {
    const Config config = parse_command_line(argc, argv);
    ensure_open_file_limit();  // before any device is opened: a restore must never lack a descriptor
    const ExitCode code = run_command(config, std::cout, std::cerr);
    return closed.out ? results_lost(config, code) : code;
  } catch (const UsageError& e) {
    // One line each: a message may quote a name the user gave, and a name may hold a newline.
    std::cerr << "disktune: " << disktune::probe::one_line(e.what()) << " (see "
              << quoted_command({"disktune", "--help"}) << ")\n";
    return kExitUsage;
  } catch (const RunError& e) {
    std::cerr << "disktune: " << disktune::probe::one_line(e.what()) << '\n';
    return e.code();
  } catch (const std::exception& e) {
    std::cerr << "disktune: internal error: " << disktune::probe::one_line(e.what()) << '\n';
    return kExitDevice;
  }
}
