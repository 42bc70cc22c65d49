// SPDX-License-Identifier: GPL-2.0-or-later
// Ending a watched child (probe/watch/watchdog.cpp only): reap it, kill its group, record how it ended.
#pragma once

#include "probe/watch/watchdog.hpp"

#include <string>

#include <sys/types.h>

namespace disktune::probe::watch_detail {

/// Where a watched child is, without reaping it.
enum class ChildState { running, ended, lost };

/// `ended`: the child is a zombie, not yet reaped, so its pid (also its process group id)
/// cannot be reused meanwhile. `lost`: not our child any more (SIGCHLD ignored: the kernel
/// reaped it, and its pid may already belong to someone else). Source: waitid(2) WNOWAIT.
ChildState child_state(pid_t pid);

/// "2.0" or "0.125": seconds with one decimal when that is exact, else three.
std::string format_seconds(double seconds);

/// The child ended on its own: collect the last bytes of pipe `fd`, kill what it left in its
/// group, reap it and record its exit status or signal in `outcome`.
void collect_ended(ChildOutcome& outcome, pid_t pid, int fd, bool& open);

/// The child is not ours any more: collect the last bytes, mark the outcome failed.
void record_lost(ChildOutcome& outcome, int fd, bool& open);

/// Past a limit: SIGKILL the group, then reap for at most limits.reap_grace; never wait
/// beyond it. Ends timed_out with `why`, or wedged when the child sleeps in state D.
void kill_overrun(ChildOutcome& outcome, pid_t pid, const WatchLimits& limits, std::string why);

/// Killed on request (the run is stopping): reaped like an overrun, then marked stopped.
void kill_stopped(ChildOutcome& outcome, pid_t pid, const WatchLimits& limits);

}  // namespace disktune::probe::watch_detail
