// SPDX-License-Identifier: GPL-2.0-or-later
// sysfs access for block devices: attribute files, the queue/ directory, queue/scheduler.
#pragma once

#include "probe/core/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::probe {

/// queue/scheduler, parsed.
struct SchedulerList {
  std::vector<std::string> names;  ///< every listed scheduler, in file order
  std::string active;              ///< the one in brackets
  /// False when the kernel printed a bare name without brackets: the queue has no elevator
  /// switching (older kernels print "none" that way).
  bool switchable = true;
};

/// Parse a queue/scheduler line such as "none [mq-deadline] kyber bfq\n": names separated by
/// blanks, the active one in brackets. A single bare name is accepted (switchable = false).
/// Errors: errc::invalid_argument ("parse queue/scheduler '<line>'") for an empty line, no
/// or several bracketed names, or unbalanced brackets.
/// Source: Documentation/ABI/stable/sysfs-block (queue/scheduler); block/elevator.c
/// elv_iosched_show.
Result<SchedulerList> parse_scheduler_line(std::string_view line);

/// The whole content of a sysfs attribute with trailing newlines removed.
/// Errors: (errno, "open" or "read", path); ENOENT when the attribute does not exist.
Result<std::string> read_sysfs(const std::string& path);
/// A sysfs attribute holding one decimal number (KiB, requests, ...).
/// Errors: as read_sysfs; errc::invalid_argument ("parse '<text>' as a number") otherwise.
Result<std::int64_t> read_sysfs_number(const std::string& path);
/// Write `text` to a sysfs attribute with one write(2), as `echo text > path` does.
/// Errors: (errno of open or write, `op`, path); EINVAL = the kernel refused the value.
Result<void> write_sysfs(const std::string& path, std::string_view text, const std::string& op);

/// "/sys/dev/block/MAJ:MIN", the sysfs directory of a block device number.
std::string sysfs_block_dir(unsigned major_number, unsigned minor_number);

/// The queue/ directory of one whole-disk block device (/sys/dev/block/MAJ:MIN/queue).
/// Source: Documentation/ABI/stable/sysfs-block, Documentation/block/queue-sysfs.rst.
class SysfsQueue {
 public:
  /// `dir` is the queue directory itself ("/sys/dev/block/7:0/queue").
  explicit SysfsQueue(std::string dir) : dir_(std::move(dir)) {}

  /// The queue directory.
  [[nodiscard]] const std::string& dir() const { return dir_; }
  /// "<dir>/<attr>".
  [[nodiscard]] std::string path(std::string_view attr) const;
  /// True if the attribute exists.
  [[nodiscard]] bool has(std::string_view attr) const;
  /// True if this process may write the attribute (access(W_OK); nothing is written).
  [[nodiscard]] bool writable(std::string_view attr) const;
  /// Text of queue/<attr>. Errors: as read_sysfs.
  [[nodiscard]] Result<std::string> read(std::string_view attr) const;
  /// Number in queue/<attr>. Errors: as read_sysfs_number.
  [[nodiscard]] Result<std::int64_t> read_number(std::string_view attr) const;
  /// Write `value` to <dir>/<attr>. Errors: (errno, "write queue/<attr>=<value>" or, for a
  /// directory named device (queue_depth), "write device/<attr>=<value>", path);
  /// errc::invalid_argument for a name that could leave the queue directory (empty, absolute,
  /// or holding ".."), nothing written.
  [[nodiscard]] Result<void> write(std::string_view attr, std::string_view value) const;

 private:
  std::string dir_;
};

}  // namespace disktune::probe
