// SPDX-License-Identifier: GPL-2.0-or-later
// SimPageCache: which byte ranges of a SIMULATED drive the simulated page cache holds.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace disktune::probe {

/// A byte range [begin, end).
using ByteRange = std::pair<std::uint64_t, std::uint64_t>;

/// The page cache of the simulated machine: disjoint ranges, oldest first. Buffered reads
/// insert what they read; when more than `capacity_bytes` is held the oldest data is dropped
/// first (a simple FIFO instead of Linux's LRU lists). flush() empties it (BLKFLSBUF).
class SimPageCache {
 public:
  /// 64 MiB: the page cache of a PII-era machine with 128 MiB of RAM.
  explicit SimPageCache(std::uint64_t capacity_bytes = 64ull << 20) : capacity_(capacity_bytes) {}

  /// The parts of `range` not in the cache, in ascending order.
  [[nodiscard]] std::vector<ByteRange> missing(ByteRange range) const;
  /// Add `range` (the parts already cached are left as they are).
  void insert(ByteRange range);
  /// Drop the cached parts of `range` (posix_fadvise DONTNEED on a range), keep the rest.
  void drop(ByteRange range);
  /// Drop everything.
  void flush() { pieces_.clear(); held_ = 0; }

 private:
  void evict();

  std::uint64_t capacity_;
  std::uint64_t held_ = 0;
  std::deque<ByteRange> pieces_;
};

}  // namespace disktune::probe
