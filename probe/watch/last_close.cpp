// SPDX-License-Identifier: GPL-2.0-or-later
// The keeper child that makes a wedged device's last close.
#include "probe/watch/last_close.hpp"

#include "probe/watch/watchdog.hpp"

#include <csignal>
#include <cstdio>

#include <sys/prctl.h>
#include <unistd.h>

namespace disktune::probe {

Result<int> leave_last_close_to_child() {
  std::fflush(nullptr);  // or the child would print the parent's buffered output again
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return errno_error(errno, "fork a keeper for the wedged device's last close", "");
  if (pid == 0) {
    ::setpgid(0, 0);  // a Ctrl-C for the terminal's group is the parent's business
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) _exit(0);
    detach_stdio();  // not the caller's pipes: `disktune ... | tee log` must end when disktune does
    for (;;) ::pause();
  }
  return pid;
}

}  // namespace disktune::probe
