// SPDX-License-Identifier: GPL-2.0-or-later
// HeartbeatBlockIo: a BlockIo that reports progress to the watchdog after every read, flush and drop.
#pragma once

#include "probe/block_io.hpp"
#include "probe/watch/watchdog.hpp"

namespace disktune::probe {

/// Forwards everything to `inner` and calls heartbeat.beat() after each read_at,
/// flush_cache, drop_cached and settle slice that returned (successfully or not), so the watchdog parent sees a stall
/// (a read that never returns) long before the trial's overall timeout. Errors: `inner`'s.
class HeartbeatBlockIo final : public BlockIo {
 public:
  HeartbeatBlockIo(BlockIo& inner, Heartbeat& heartbeat) : inner_(inner), heartbeat_(heartbeat) {}

  Result<void> read_at(std::uint64_t offset_bytes, std::span<std::byte> buffer) override;
  Result<void> flush_cache() override;
  Result<void> drop_cached(std::uint64_t offset_bytes, std::uint64_t length_bytes) override;
  /// inner_.settle in slices of at most 0.5 s with a beat after each, up to `bound` in all.
  Result<Seconds> settle(Seconds bound) override;
  std::optional<std::uint64_t> completed_bytes() override { return inner_.completed_bytes(); }
  [[nodiscard]] std::uint64_t size_bytes() const override { return inner_.size_bytes(); }
  Clock& clock() override { return inner_.clock(); }

 private:
  BlockIo& inner_;
  Heartbeat& heartbeat_;
};

}  // namespace disktune::probe
