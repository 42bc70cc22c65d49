// SPDX-License-Identifier: GPL-2.0-or-later
// Closed standard descriptors: reopened on /dev/null so no file disktune opens takes their place.
#pragma once

namespace disktune::tuner {

/// Which of the standard descriptors were closed when disktune started.
struct ClosedStdio {
  bool out = false;  ///< fd 1: the results have nowhere to go (an error, README exit code 2)
  bool err = false;  ///< fd 2: progress and errors are lost (the exit code still tells)
};

/// Open /dev/null onto each of fds 0, 1 and 2 that is closed (fcntl F_GETFD fails with
/// EBADF), before anything else is opened: otherwise the journal, the device lock or an
/// output would get that number and the table or the progress text would be written into
/// it (`disktune tune 2>&-` once wrote its progress into the journal). Never fails: a
/// descriptor that cannot be reopened stays closed.
ClosedStdio reopen_closed_stdio();

}  // namespace disktune::tuner
