// SPDX-License-Identifier: GPL-2.0-or-later
// Running drive workers: fork and exec each, groups concurrently, a group's drives in turn.
#pragma once

#include "tuner/fleet/multi_tune.hpp"

#include <vector>

namespace disktune::tuner {

/// Run every drive of `runs` by its argv (execv of argv[0]): a worker per group at a time,
/// the next drive of a group once the one before it ended. Each worker runs in a process
/// group of its own (a terminal's ^C reaches the parent only, which forwards it once per
/// signal), gets SIGTERM when the parent dies (PR_SET_PDEATHSIG), and writes stdout and
/// stderr to its log_path. Fills exit_code, outcome, start_s and end_s of each run.
/// Must be called before the process starts any thread (fork).
void run_workers(std::vector<DriveRun>& runs, std::size_t groups);

}  // namespace disktune::tuner
