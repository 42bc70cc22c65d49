// SPDX-License-Identifier: GPL-2.0-or-later
// Timestamps and the kernel release, as the report records them.
#pragma once

#include <string>

namespace disktune::tuner {

/// Current time as ISO 8601 UTC with seconds, e.g. "2026-11-30T05:01:02Z".
std::string utc_timestamp();
/// uname -r (e.g. "6.1.0-28-amd64"); "unknown" if uname fails.
std::string kernel_release();

}  // namespace disktune::tuner
