// SPDX-License-Identifier: GPL-2.0-or-later
// Writing output files atomically (temporary file + rename), never through a planted symlink.
#pragma once

#include <string>

namespace disktune::tuner {

/// Write `content` to `path` ("-" = stdout): a temporary file in the same directory
/// (mkstemp, mode 0644), fsync, then rename over `path`, so readers never see half a file and a
/// symlink at `path` is replaced, not followed. Throws RunError(exit 2) naming the path and errno.
void write_output(const std::string& path, const std::string& content);

}  // namespace disktune::tuner
