// SPDX-License-Identifier: GPL-2.0-or-later
// RLIMIT_NOFILE: raised to what a run needs, or the run refused.
#include "tuner/host/fd_limit.hpp"

#include "tuner/run_error.hpp"

#include <algorithm>
#include <string>

namespace disktune::tuner {

void ensure_open_file_limit(rlim_t needed) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= needed) return;
  const rlim_t soft = limit.rlim_cur;
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? needed : std::min(limit.rlim_max, std::max(needed, soft));
  if (limit.rlim_cur >= needed && ::setrlimit(RLIMIT_NOFILE, &limit) == 0) return;
  const rlimit raised{needed, needed};  // a hard limit below it: root (CAP_SYS_RESOURCE) may raise both
  if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) return;
  const std::string hard = limit.rlim_max == RLIM_INFINITY ? "unlimited" : std::to_string(limit.rlim_max);
  throw RunError(kExitUsage, "the open-file limit is " + std::to_string(soft) + " (hard " + hard + "): disktune needs " +
                                 std::to_string(needed) + " to measure and to put settings back; raise it (ulimit -n " +
                                 std::to_string(needed) + ") and run again; nothing was changed");
}

}  // namespace disktune::tuner
