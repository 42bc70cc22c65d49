// SPDX-License-Identifier: GPL-2.0-or-later
// The open-file limit a run needs, raised or refused before anything is changed.
#pragma once

#include <sys/resource.h>

namespace disktune::tuner {

/// Open files a command may hold at once: the device, the journal and its lock, a trial
/// child's pipes and fio's three, /sys attributes being read and written, the outputs.
inline constexpr rlim_t kFilesNeeded = 64;

/// Make sure RLIMIT_NOFILE's soft limit is at least `needed`: raise it (up to the hard limit,
/// or both limits where the process may, as root)
/// when it is lower, so that a restore never fails for want of a descriptor after a change.
/// Throws RunError (exit 2) naming both limits when the hard limit is below `needed`: a run
/// that would fail half-way (and then could not even put settings back) is refused before it
/// opens the device. Source: getrlimit(2).
void ensure_open_file_limit(rlim_t needed = kFilesNeeded);

}  // namespace disktune::tuner
