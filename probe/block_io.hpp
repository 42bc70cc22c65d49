// SPDX-License-Identifier: GPL-2.0-or-later
// probe::BlockIo: read-only access to a device's data, for measurements and integrity checks.
#pragma once

#include "probe/core/clock.hpp"
#include "probe/core/error.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace disktune::probe {

/// How a BlockIo reads: through the page cache (hdparm -t / -T) or with O_DIRECT (--direct).
enum class IoMode { buffered, direct };

/// Read-only byte access to one device. Never writes: implementations open devices O_RDONLY.
/// Not thread-safe; one per measuring process. Every method is pure virtual, so every
/// implementation and wrapper defines (forwards) each one: none can be dropped silently.
class BlockIo {
 public:
  virtual ~BlockIo() = default;
  /// Read exactly buffer.size() bytes at offset_bytes. With IoMode::direct, offset and size
  /// must be multiples of 4096 and the buffer 4096-aligned.
  /// Errors: the read's errno ("pread", path); EIO from the drive; errc::io_error on a short read.
  virtual Result<void> read_at(std::uint64_t offset_bytes, std::span<std::byte> buffer) = 0;
  /// Drop this device's page cache (BLKFLSBUF, else posix_fadvise DONTNEED), as hdparm's
  /// flush_buffer_cache does before a buffered-read sample. Errors: the ioctl's errno.
  virtual Result<void> flush_cache() = 0;
  /// Drop the page cache of bytes [offset_bytes, offset_bytes + length_bytes) only (Linux:
  /// posix_fadvise POSIX_FADV_DONTNEED on that range; clean, unmapped pages only). A buffered
  /// benchmark calls it on data it has already read, so its page cache stays small and the
  /// pages it frees are reused at once (bench::Workload::drop_behind_bytes). It can only
  /// make later reads go to the device, never to the cache. Pure virtual like every method
  /// here: a wrapper must forward it (a forgotten override would drop the call silently).
  /// Errors: the call's errno.
  virtual Result<void> drop_cached(std::uint64_t offset_bytes, std::uint64_t length_bytes) = 0;
  /// Waits until the reads this process submitted to the device since the last settle (or
  /// the open) have completed, readahead and reads a cgroup throttle still holds included
  /// (Linux: probe::wait_for_reads, which also ends after 250 ms of a quiet device when the
  /// counts cannot meet). A measurement calls it after its clock stops, so the next one
  /// starts on an idle device and pays for no read it did not ask for. Returns the time
  /// waited (0 when nothing was in flight, or the counters could not be read at open).
  /// Errors: errc::timed_out when reads are still in flight after `bound`; the counters' read error.
  virtual Result<Seconds> settle(Seconds bound) = 0;
  /// The bytes the device completed for this process's reads since the last settle (or the
  /// open), readahead included and reads still in flight not. A reader that keeps
  /// reading consumes its readahead, so a buffered sample counts these: neither the window it
  /// fills at its start nor the one in flight at its end is charged against it
  /// (bench::run_sample). nullopt when the counters cannot be read, when the device completed
  /// more than this process submitted (another reader is at it: its reads cannot be told from
  /// ours), or on a device that completes every read inside read_at (simulated): count the
  /// bytes read instead.
  virtual std::optional<std::uint64_t> completed_bytes() = 0;
  /// Device size in bytes (BLKGETSIZE64).
  [[nodiscard]] virtual std::uint64_t size_bytes() const = 0;
  /// The clock that times this device's reads (steady for real devices, virtual for sim:).
  virtual Clock& clock() = 0;
};

}  // namespace disktune::probe
