// SPDX-License-Identifier: GPL-2.0-or-later
// flock_within: take an exclusive flock, waiting a bounded while for its holder to let go.
#pragma once

namespace disktune::tuner {

/// flock(fd, LOCK_EX) within `wait_ms` milliseconds: tries at once, then every 50 ms. Why: a
/// run killed with -9 leaves its trial child holding the lock for a moment while it dies with
/// its parent (PR_SET_PDEATHSIG; SIGKILL lands once a read in flight completes), and a restore
/// or resume right after the kill must not be refused for that. Returns false when the lock
/// is still held after the wait, or at once for any error but EWOULDBLOCK (errno says which).
bool flock_within(int fd, int wait_ms);

}  // namespace disktune::tuner
