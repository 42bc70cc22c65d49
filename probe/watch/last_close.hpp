// SPDX-License-Identifier: GPL-2.0-or-later
// Keep this process's exit from waiting on a wedged device: a child makes the last close.
#pragma once

#include "probe/core/error.hpp"

namespace disktune::probe {

/// Fork a keeper child that inherits every open descriptor (the device's included) and
/// sleeps until this process ends (PR_SET_PDEATHSIG SIGKILL), so the last close of a wedged
/// device happens in the keeper: closing a block device for the last time flushes its page
/// cache (bdev_release -> blkdev_flush_mapping), which waits uninterruptibly for reads that
/// will never complete. This process then exits at once; the keeper stays in state D until
/// the device answers or is torn down. Returns the keeper's pid.
/// Errors: (errno, "fork a keeper for the wedged device's last close").
Result<int> leave_last_close_to_child();

}  // namespace disktune::probe
