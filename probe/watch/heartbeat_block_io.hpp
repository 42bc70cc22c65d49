// SPDX-License-Identifier: GPL-2.0-or-later
// HeartbeatBlockIo: a BlockIo that reports progress to the watchdog after every read, flush and drop.
#pragma once

#include "probe/block_io.hpp"
#include "probe/watch/watchdog.hpp"

namespace disktune::probe {

/// Forwards everything to `inner` and calls heartbeat.beat() after each read_at,
/// flush_cache and drop_cached that returned (successfully or not), so the watchdog parent sees a stall
/// (a read that never returns) long before the trial's overall timeout. Errors: `inner`'s.
class HeartbeatBlockIo final : public BlockIo {
 public:
  HeartbeatBlockIo(BlockIo& inner, Heartbeat& heartbeat) : inner_(inner), heartbeat_(heartbeat) {}

  Result<void> read_at(std::uint64_t offset_bytes, std::span<std::byte> buffer) override;
  Result<void> flush_cache() override;
  Result<void> drop_cached(std::uint64_t offset_bytes, std::uint64_t length_bytes) override;
  [[nodiscard]] std::uint64_t size_bytes() const override { return inner_.size_bytes(); }
  Clock& clock() override { return inner_.clock(); }

 private:
  BlockIo& inner_;
  Heartbeat& heartbeat_;
};

}  // namespace disktune::probe
