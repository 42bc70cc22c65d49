// SPDX-License-Identifier: GPL-2.0-or-later
// Read accounting: the bytes this process has submitted to the block layer, and the bytes a
// device has completed, so a measurement can wait out the reads it left in flight.
#pragma once

#include "probe/core/clock.hpp"
#include "probe/core/error.hpp"

#include <cstdint>
#include <ostream>
#include <string>

namespace disktune::probe {

/// The bytes this process has submitted for reading to any block device since it started:
/// /proc/self/io "read_bytes". The kernel counts a read when submit_bio() takes it, before a
/// cgroup throttle (blk-throttle) holds it and before it reaches the device's queue, and
/// counts readahead in the context of the reader that triggered it.
/// Errors: (errno, "open" or "read", "/proc/self/io"); errc::invalid_argument when the file
/// has no read_bytes line (kernel built without CONFIG_TASK_IO_ACCOUNTING).
/// Source: Documentation/filesystems/proc.rst, "/proc/<pid>/io"; block/blk-core.c submit_bio.
Result<std::uint64_t> task_submitted_read_bytes();

/// A block device's read completions, from its stat file (/sys/dev/block/MAJ:MIN/stat).
struct DeviceReads {
  std::uint64_t completed_bytes = 0;  ///< "read sectors" × 512: counted when a request completes
  std::uint64_t in_flight = 0;        ///< "in_flight": requests issued to the driver, not completed
};

/// "completed <bytes> B, in_flight <n>" (test and log messages).
std::ostream& operator<<(std::ostream& out, const DeviceReads& reads);

/// Parse a block device's stat line (Documentation/block/stat.rst: eleven or more decimal
/// fields; field 3 is read sectors, field 9 in_flight).
/// Errors: errc::invalid_argument ("parse block stat '<line>'") with fewer than 9 fields or a
/// field that is not a number.
Result<DeviceReads> parse_block_stat(const std::string& line);

/// The stat file of the block device `device_number` (a dev_t, e.g. from fstat's st_rdev),
/// read and parsed. A partition has its own; its reads also count in its disk's.
/// Errors: as read_sysfs ((errno, "open" or "read", path)); as parse_block_stat.
/// Source: Documentation/block/stat.rst; Documentation/ABI/stable/sysfs-block.
Result<DeviceReads> read_device_reads(std::uint64_t device_number);

/// Both counters at one moment: what wait_for_reads compares with.
struct ReadMark {
  std::uint64_t submitted_bytes = 0;  ///< task_submitted_read_bytes()
  std::uint64_t completed_bytes = 0;  ///< the device's DeviceReads::completed_bytes
};

/// "submitted <bytes> B, completed <bytes> B" (test and log messages).
std::ostream& operator<<(std::ostream& out, const ReadMark& mark);

/// The counters now. Errors: as task_submitted_read_bytes and read_device_reads.
Result<ReadMark> mark_reads(std::uint64_t device_number);

/// Waits until every read this process submitted since `mark` has completed at the device:
/// the bytes the device completed since `mark` reach the bytes this process submitted since
/// it, so reads still held by a cgroup throttle (which /sys/block/NAME/inflight does not
/// show) or still in the device's queue are waited for. Why: a buffered reader leaves its
/// readahead in flight when it stops, and the device (or the throttle's budget) is still busy
/// with it when the next measurement starts: without the wait that measurement pays for it.
/// When this process also read another device since `mark` the counts never meet; then the
/// device being quiet for 250 ms (completions unchanged, in_flight 0) ends the wait too.
/// Polls every 2 ms. Sets `mark` to the counters at the end. Returns the time waited.
/// Errors: as mark_reads; errc::timed_out ("reads still in flight after <bound> s") when
/// neither happened within `bound`.
Result<Seconds> wait_for_reads(std::uint64_t device_number, ReadMark& mark, Seconds bound);

}  // namespace disktune::probe
