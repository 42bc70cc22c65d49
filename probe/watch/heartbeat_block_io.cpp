// SPDX-License-Identifier: GPL-2.0-or-later
// HeartbeatBlockIo: forward, then beat.
#include "probe/watch/heartbeat_block_io.hpp"

#include <algorithm>

namespace disktune::probe {

Result<void> HeartbeatBlockIo::read_at(std::uint64_t offset_bytes, std::span<std::byte> buffer) {
  auto read = inner_.read_at(offset_bytes, buffer);
  heartbeat_.beat();
  return read;
}

Result<void> HeartbeatBlockIo::flush_cache() {
  auto flushed = inner_.flush_cache();
  heartbeat_.beat();
  return flushed;
}

Result<void> HeartbeatBlockIo::drop_cached(std::uint64_t offset_bytes, std::uint64_t length_bytes) {
  auto dropped = inner_.drop_cached(offset_bytes, length_bytes);
  heartbeat_.beat();
  return dropped;
}

// In slices of at most half a second, beating after each, so a long wait (a large readahead
// on a slow or throttled device) never looks like a stall to the watchdog.
Result<Seconds> HeartbeatBlockIo::settle(Seconds bound) {
  constexpr Seconds kSlice{0.5};
  Seconds waited{0.0};
  for (;;) {
    auto slice = inner_.settle(std::min(kSlice, bound - waited));
    heartbeat_.beat();
    if (slice) return waited + *slice;
    if (slice.error().code != std::make_error_code(std::errc::timed_out)) return slice.error();
    waited += std::min(kSlice, bound - waited);
    if (waited >= bound) return slice.error();
  }
}

}  // namespace disktune::probe
