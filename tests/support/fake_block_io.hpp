// SPDX-License-Identifier: GPL-2.0-or-later
// FakeBlockIo: a SIMULATED in-memory BlockIo on a virtual clock, recording every call, for tests.
#pragma once

#include "probe/core/clock.hpp"
#include "probe/block_io.hpp"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <utility>
#include <vector>

namespace disktune::testing {

/// The byte the fake returns at `offset_bytes`: a fixed pattern that differs between
/// neighbouring bytes, 256-byte blocks and 4 KiB pages, so misplaced reads show.
std::byte fake_pattern_byte(std::uint64_t offset_bytes);

/// How a FakeBlockIo behaves. Rates are MiB/s (2^20 bytes per second, as hdparm).
struct FakeBlockIoConfig {
  std::uint64_t size_bytes = 64u << 20;  ///< device size
  double disk_mib_s = 100.0;             ///< virtual-clock cost of a read not in the cache
  /// Cost of re-reading an (offset, length) already read since the last flush; nullopt =
  /// no page-cache model (every read costs disk_mib_s). Ignored with IoMode::direct.
  std::optional<double> cached_mib_s{};
  probe::Seconds flush_cost{0.0};  ///< virtual time one flush_cache() takes
  /// direct: like O_DIRECT, EINVAL ("pread") unless offset, length and buffer address are
  /// multiples of 4096.
  probe::IoMode mode = probe::IoMode::buffered;
  std::optional<std::size_t> fail_read_index{}; ///< 0-based read_at call that fails
  std::optional<std::size_t> fail_flush_index{}; ///< 0-based flush_cache call that fails
  int fail_errno = EIO;                         ///< errno of the injected failure
  /// Readahead: a read that does not follow the last one fills a window of this many bytes
  /// beyond it (charged at disk_mib_s, counted in completed_bytes()); every read leaves that
  /// many bytes in flight, which the next read right after it consumes for free and any other
  /// read first waits out, as a disk still busy with the last reader's readahead; settle()
  /// waits them out too. Flushes and drops do not wait (BLKFLSBUF skips pages under read).
  /// 0: completed_bytes() is nullopt (no readahead modelled).
  std::uint64_t readahead_bytes = 0;
};

/// One recorded call, in call order.
struct FakeIoEvent {
  enum class Kind { read, flush, drop, settle } kind;
  std::uint64_t offset_bytes = 0;   ///< reads and drops
  std::uint64_t length_bytes = 0;   ///< reads and drops
  const std::byte* buffer = nullptr;  ///< reads only: the caller's buffer address
};

/// A SIMULATED device: reads return fake_pattern_byte data and advance the virtual clock by
/// length / rate; flushes are counted and empty the modelled page cache; drops (drop_cached)
/// are recorded and take the reads they cover out of it. Failed calls are
/// recorded too. Reads past the end fail with errc::io_error (a short read), as BlockIo says.
class FakeBlockIo final : public probe::BlockIo {
 public:
  explicit FakeBlockIo(FakeBlockIoConfig config);

  probe::Result<void> read_at(std::uint64_t offset_bytes, std::span<std::byte> buffer) override;
  probe::Result<void> flush_cache() override;
  probe::Result<void> drop_cached(std::uint64_t offset_bytes, std::uint64_t length_bytes) override;
  /// Recorded; advances the virtual clock by FakeBlockIoConfig::settle_s (reads left in flight).
  probe::Result<probe::Seconds> settle(probe::Seconds bound) override;
  /// With readahead_bytes: the bytes read and filled since the last settle; else nullopt.
  std::optional<std::uint64_t> completed_bytes() override;
  [[nodiscard]] std::uint64_t size_bytes() const override { return config_.size_bytes; }
  probe::Clock& clock() override { return clock_; }

  /// The virtual clock (tests may advance it or read it).
  probe::VirtualClock& virtual_clock() { return clock_; }
  /// Every call so far, in order.
  [[nodiscard]] const std::vector<FakeIoEvent>& events() const { return events_; }
  /// Offsets of all read_at calls, in order.
  [[nodiscard]] std::vector<std::uint64_t> read_offsets() const;
  [[nodiscard]] std::size_t read_count() const { return reads_; }
  [[nodiscard]] std::size_t flush_count() const { return flushes_; }

 private:
  probe::Seconds wait_in_flight();  // advances the clock over in_flight_bytes_, clears them
  [[nodiscard]] double rate_for(std::uint64_t offset_bytes, std::uint64_t length_bytes) const;

  FakeBlockIoConfig config_;
  probe::VirtualClock clock_;
  std::vector<FakeIoEvent> events_;
  std::set<std::pair<std::uint64_t, std::uint64_t>> cached_;  // (offset, length) since flush
  std::size_t reads_ = 0;
  std::size_t flushes_ = 0;
  std::uint64_t in_flight_bytes_ = 0;  // readahead of the last read, not yet consumed or waited
  std::uint64_t next_offset_ = UINT64_MAX;  // where the last read ended: its readahead starts there
  std::uint64_t completed_bytes_ = 0;  // read and filled since the last settle
};

}  // namespace disktune::testing
