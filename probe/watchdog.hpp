// SPDX-License-Identifier: GPL-2.0-or-later
// Watchdog: run one trial in a forked child and never block on it past its time limit.
#pragma once

#include "bench/clock.hpp"

#include <functional>
#include <string>

namespace disktune::probe {

/// How a watched child ended.
enum class ChildEnd {
  finished,   ///< exited 0 after writing its payload
  failed,     ///< exited non-zero or was killed by a signal it raised itself (crash)
  timed_out,  ///< overran the limit and was killed (SIGKILL): a hang
};

/// The child's outcome as the parent saw it.
struct ChildOutcome {
  ChildEnd end = ChildEnd::failed;
  std::string payload;    ///< everything the body returned (only complete when finished)
  int exit_code = -1;     ///< exit status when it exited, else -1
  int signal = 0;         ///< terminating signal, 0 if none
  bench::Seconds elapsed{0.0};  ///< wall time the parent waited
  std::string detail;     ///< human summary: "exit 1", "killed by SIGSEGV", "timed out after 2.0 s"
};

/// fork(); the child runs `body` and sends the returned string to the parent through a pipe,
/// then _exit(0) (an exception in body: _exit(1)). The parent polls the pipe and the child
/// with `timeout` of wall time; past it, it SIGKILLs the child's process group and reaps it
/// without blocking forever. The child dies with the parent (PR_SET_PDEATHSIG).
/// The child runs in its own process group (pgid = its pid); whatever it leaves in that group
/// is SIGKILLed once it ends, also when it finished. Child exit codes set here: 1 = body
/// threw, 2 = writing the payload failed, 3 = the parent was already gone.
/// A child still unreaped 2 s after SIGKILL (uninterruptible sleep, state D) is left behind:
/// timed_out, and `detail` names its pid. Setup failures (pipe2, fork): failed, detail
/// "fork: <strerror>". `timeout` must be > 0 (DT_ASSERT).
/// Source: DESIGN.md "Hangs, crashes and reboots".
ChildOutcome run_in_child(const std::function<std::string()>& body, bench::Seconds timeout);

}  // namespace disktune::probe
