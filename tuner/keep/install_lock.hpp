// SPDX-License-Identifier: GPL-2.0-or-later
// One `disktune install` or `uninstall` at a time per root directory.
#pragma once

#include "probe/core/unique_fd.hpp"

#include <string>

namespace disktune::tuner {

/// An exclusive flock held for one install or uninstall into `root` (its resolved path), on
/// /run/disktune/install-KEY.lock (KEY from the path, so the lock leaves nothing in the tree),
/// waiting up to 10 s for another command holding it (flock_wait.hpp). Why: two at once lost
/// an hdparm.conf block (both read the file, each wrote it back with its own block only) and
/// let a second --exe past the shared unit's check. Released when the descriptor is closed.
/// Throws RunError(exit 2) naming `command`, the root and the lock file when it cannot be
/// taken.
probe::UniqueFd lock_install_root(const std::string& root, const char* command);

}  // namespace disktune::tuner
