// SPDX-License-Identifier: GPL-2.0-or-later
// HeartbeatBlockIo: forward, then beat.
#include "probe/watch/heartbeat_block_io.hpp"

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

}  // namespace disktune::probe
