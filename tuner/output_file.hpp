// SPDX-License-Identifier: GPL-2.0-or-later
// Writing output files atomically (temporary file + rename), never through a planted symlink.
#pragma once

#include <string>

namespace disktune::tuner {

/// Write `content` to `path` ("-" = stdout). A regular file (or a new one) is written as a
/// temporary file in the same directory (mkstemp, mode 0644), fsync, then renamed over
/// `path`, so readers never see half a file. An existing character device or FIFO (e.g.
/// /dev/null) is written in place, never replaced. A symbolic link is refused, never followed
/// or replaced (it may have been planted in a shared directory). Throws RunError(exit 2)
/// naming the path and the reason.
void write_output(const std::string& path, const std::string& content);

/// Check before a run that `path` can be written by write_output: "-", an existing regular
/// file, character device or FIFO, or a new name in an existing writable directory; not a
/// symlink or a directory. Throws RunError(exit 2) naming the path and the reason, so a bad
/// path is found before hours of trials, not after.
void check_output_path(const std::string& path);

}  // namespace disktune::tuner
