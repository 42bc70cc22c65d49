// SPDX-License-Identifier: GPL-2.0-or-later
// The read cap a cgroup puts on a device for this process: the throttled test bed's disk timing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace disktune::probe {

/// The read caps this process's cgroup puts on block device `majmin` ("7:0"), as the kernel
/// throttles them: cgroup v1 blkio.throttle.read_bps_device and read_iops_device of its blkio
/// cgroup, or cgroup v2 io.max's rbps and riops of its unified cgroup (kernel docs
/// admin-guide/cgroup-v1/blkio-controller.rst, admin-guide/cgroup-v2.rst "IO Interface
/// Files"); the cgroup's own files, not its parents'. Unreadable files count as no cap.
struct ReadCap {
  std::optional<std::uint64_t> bytes_per_s;  ///< read bytes per second
  std::optional<std::uint64_t> ios_per_s;    ///< read requests per second
};

/// The caps on `majmin` from the cgroup named in `proc_cgroup` (the text of /proc/self/cgroup)
/// under `cgroup_root` (/sys/fs/cgroup); nullopt when neither cap is set.
std::optional<ReadCap> read_cap(const std::string& majmin, const std::string& proc_cgroup,
                                const std::string& cgroup_root = "/sys/fs/cgroup");

/// read_cap for this process (/proc/self/cgroup).
std::optional<ReadCap> own_read_cap(const std::string& majmin);

}  // namespace disktune::probe
