// SPDX-License-Identifier: GPL-2.0-or-later
// reopen_closed_stdio: /dev/null onto closed fds 0-2, lowest first (open takes the lowest free).
#include "tuner/host/closed_stdio.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace disktune::tuner {
namespace {

bool closed(int fd) { return ::fcntl(fd, F_GETFD) == -1 && errno == EBADF; }

}  // namespace

ClosedStdio reopen_closed_stdio() {
  ClosedStdio was{closed(1), closed(2)};
  for (int fd = 0; fd <= 2; ++fd) {
    if (!closed(fd)) continue;
    const int null = ::open("/dev/null", O_RDWR);
    if (null < 0) break;
    if (null != fd) {  // a lower one was open after all: put it where it belongs
      ::dup2(null, fd);
      ::close(null);
    }
  }
  return was;
}

}  // namespace disktune::tuner
