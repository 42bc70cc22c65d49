// SPDX-License-Identifier: GPL-2.0-or-later
// flock_within: a bounded wait for an exclusive flock.
#include "tuner/host/flock_wait.hpp"

#include <sys/file.h>
#include <unistd.h>

#include <cerrno>

namespace disktune::tuner {

bool flock_within(int fd, int wait_ms) {
  for (int waited_ms = 0;; waited_ms += 50) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
    if (errno != EWOULDBLOCK || waited_ms >= wait_ms) return false;
    ::usleep(50'000);
  }
}

}  // namespace disktune::tuner
