// SPDX-License-Identifier: GPL-2.0-or-later
// Running fio as a subprocess (fork/exec, no shell) and collecting what it printed.
#pragma once

#include "probe/core/clock.hpp"
#include "probe/core/error.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::bench {

/// What one fio run printed, and how it ended.
struct FioRun {
  std::string out;     ///< its stdout (with --output-format=json: the JSON document)
  std::string err;     ///< its stderr (fio's own error messages)
  int exit_code = 0;   ///< its exit status; 128 + N when killed by signal N
  /// FioLimits::finish asked fio to finish early (SIGINT): fio ended its jobs and printed its
  /// final output for the time they ran; fio 3.33 then exits 128, which is not a failure here.
  bool finished_early = false;
};

/// What fio gets on its standard input, and when it is ended before it exits by itself.
struct FioLimits {
  /// Written to fio's stdin, which is then closed: the job fio reads from "-" (a checked,
  /// normalised job, never a user's path). Empty: stdin is /dev/null.
  std::string input;
  /// fio is killed (SIGKILL) once it has run this long: every run has a bound derived from
  /// what it should take (fio_time_limit for a sample; kFioQuickLimit for --version and
  /// --parse-only), so nothing fio reads or does can hang the caller.
  probe::Seconds time_limit{0.0};
  /// Polled at least every 50 ms and after every signal that interrupts the wait: true
  /// kills fio at once (a stop request). Empty: only the time limit ends it early.
  std::function<bool()> stop;
  /// Called with everything fio printed on stdout so far, each time more arrives: true asks
  /// fio to finish now (SIGINT, once; fio's own Ctrl-C: it ends its jobs and prints its final
  /// report, then exits). For a steady stop over --status-interval reports. Empty: never.
  std::function<bool(std::string_view out)> finish = {};
  /// A descriptor fio keeps across exec at the same number (its close-on-exec flag cleared in
  /// the child only): the held device a sample names as "/proc/self/fd/N"
  /// (probe/held_name.hpp). -1: none.
  int inherit_fd = -1;
};

/// The bound of a run that reads no device (`--version`, `--parse-only` of a checked job) [s].
inline constexpr probe::Seconds kFioQuickLimit{10.0};

/// Run `fio ARGS...` (found on PATH, execvp; no shell) and wait for it, within `limits`.
/// The fio child dies with the calling thread (prctl PR_SET_PDEATHSIG SIGKILL, then a getppid
/// check for a parent already gone) and stays in the caller's process group, so whatever
/// kills the caller or its group (a trial's watchdog: SIGKILL to the group) ends fio too and
/// no fio reads on. A non-zero exit is not an error here: the caller reads `err`.
/// Precondition: limits.time_limit > 0.
/// Errors: fio not on PATH: errc::no_such_file_or_directory, op "fio not found: install
/// Debian's fio package (scripts/setup does)"; another exec failure: its errno, op "exec fio";
/// past its time limit: errc::timed_out, op "fio ran past its time limit of N s: killed";
/// stopped: errc::interrupted, op "fio ended by a stop request"; pipe/fork/poll failures:
/// their errno.
probe::Result<FioRun> run_fio(const std::vector<std::string>& args, const FioLimits& limits);

/// fio's first error line in `run.err` (else its last stdout line, else "exit N"), for messages.
std::string fio_message(const FioRun& run);

}  // namespace disktune::bench
