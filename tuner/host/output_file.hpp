// SPDX-License-Identifier: GPL-2.0-or-later
// Writing output files atomically (temporary file + rename), never through a planted symlink.
#pragma once

#include <sys/stat.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace disktune::tuner {

/// The files a run writes its answer to, each only when asked for (docs/inputs-outputs.md).
struct OutputPaths {
  std::optional<std::string> report_path;      ///< --report FILE ("-" = stdout)
  std::optional<std::string> boot_local_path;  ///< --boot-local FILE
  std::optional<std::string> html_path;        ///< tune/report --html FILE: the HTML report (results/html_report.hpp)
  std::optional<std::string> hdparm_conf_path; ///< --hdparm-conf FILE
  std::optional<std::string> udev_rules_path;  ///< --udev-rules FILE
  std::optional<std::string> tuned_profile_path;  ///< --tuned-profile FILE
  std::optional<std::string> summary_path;     ///< tune --summary FILE: the machine summary (several drives)
};

/// How long writing in place waits for a FIFO's reader to appear or to read on [s].
inline constexpr std::chrono::seconds kInPlaceWait{5};

/// Write `content` to `path` ("-" = stdout). A regular file (or a new one) is written as a
/// temporary file in the same directory (mkstemp), fsync, then renamed over `path`, so
/// readers never see half a file; a file replaced keeps its mode (and, written by root, its
/// owner and group), a new one is 0644. An existing character device or FIFO (e.g.
/// /dev/null) is written in place, never replaced, without blocking: a FIFO nobody reads
/// (or stops reading) for kInPlaceWait is an error. A symbolic link is refused, never
/// followed or replaced (it may have been planted in a shared directory). Throws
/// RunError(exit 2) naming the path and the reason (also for a closed or full stdout).
void write_output(const std::string& path, const std::string& content);

/// Remove the temporary files write_output leaves beside `path` when it is killed between
/// mkstemp and rename ("DIR/.BASE.XXXXXX": regular files of that name pattern, not symlinks)
/// whose last change is at least `older_than` ago, so a write in progress is never taken.
/// Returns the paths removed; a directory that cannot be read removes nothing.
std::vector<std::string> remove_stale_temporaries(const std::string& path, std::chrono::seconds older_than);

/// Check before a run that `path` can be written by write_output: "-", an existing regular
/// file, character device or FIFO, or a new name in an existing writable directory; not a
/// symlink or a directory. Regular and new files are proven by creating (and removing) the
/// temporary file and the new name, which catches /proc, /sys, read-only file systems and
/// over-long names. Throws RunError(exit 2) naming the path and the reason, so a bad path is
/// found before hours of trials, not after.
void check_output_path(const std::string& path);

/// Throws RunError (exit 2, "OPTION PATH: a sysfs file (a kernel interface), not one to write
/// to") when `path`, or for a name not there yet the directory it would go in, lies on a
/// kernel interface file system (procfs, sysfs, cgroup, debugfs, tracefs, securityfs, bpf:
/// statfs(2) f_type, linux/magic.h): for files disktune writes that are no output
/// (check_output_path refuses those itself), such as the journal.
void refuse_kernel_interface(const std::string& option, const std::string& path);

/// Refuse (RunError, exit 2) the regular file `path` (its lstat in `st`) when it backs a loop
/// device (probe::loops_backed_by): a report, a snippet or a journal written over a disk image
/// in use would destroy the disk under the tune. Other kinds of file pass.
void refuse_disk_image(const std::string& path, const struct stat& st);

/// True when `a` and `b` name the same file: the same inode when both exist (a character
/// device such as /dev/null may take several outputs), else the same path once symlinks and
/// "." / ".." are resolved. For refusing an output that would overwrite an input or another
/// output (--report equal to --journal).
bool same_file(const std::string& a, const std::string& b);

}  // namespace disktune::tuner
