// SPDX-License-Identifier: GPL-2.0-or-later
// Running fio as a subprocess (fork/exec, no shell) and collecting what it printed.
#pragma once

#include "probe/core/error.hpp"

#include <string>
#include <vector>

namespace disktune::bench {

/// What one fio run printed, and how it ended.
struct FioRun {
  std::string out;     ///< its stdout (with --output-format=json: the JSON document)
  std::string err;     ///< its stderr (fio's own error messages)
  int exit_code = 0;   ///< its exit status; 128 + N when killed by signal N
};

/// Run `fio ARGS...` (found on PATH, execvp; no shell) with stdin on /dev/null and wait for it.
/// The fio child dies with the calling thread (prctl PR_SET_PDEATHSIG SIGKILL, then a getppid
/// check for a parent already gone) and stays in the caller's process group, so whatever
/// kills the caller or its group (a trial's watchdog: SIGKILL to the group) ends fio too and
/// no fio reads on. A non-zero exit is not an error here: the caller reads `err`.
/// Errors: fio not on PATH: errc::no_such_file_or_directory, op "fio not found: install
/// Debian's fio package (scripts/setup does)"; another exec failure: its errno, op "exec fio";
/// pipe/fork/poll failures: their errno.
probe::Result<FioRun> run_fio(const std::vector<std::string>& args);

/// fio's first error line in `run.err` (else its last stdout line, else "exit N"), for messages.
std::string fio_message(const FioRun& run);

}  // namespace disktune::bench
