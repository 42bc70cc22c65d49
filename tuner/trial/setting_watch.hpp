// SPDX-License-Identifier: GPL-2.0-or-later
// SettingWatch: every setting of a measurement read back between its samples and while it reads.
#pragma once

#include "probe/core/clock.hpp"
#include "probe/block_io.hpp"
#include "probe/device.hpp"

#include <optional>
#include <string>

namespace disktune::tuner {

/// How often a SettingWatch compares while a sample reads [s of the measurement's clock].
inline constexpr probe::Seconds kSettingWatchInterval{0.02};

/// Watches one measurement for a setting another process changes and changes back while it
/// runs (the read-backs before and after measuring cannot see that). Compares every setting
/// of `expected` whose read-back the device trusts (probe::Device::read_back_trusted; on
/// Linux the block-queue settings, sysfs files and BLKRAGET; not the ATA knobs, whose read can
/// send IDENTIFY to the drive: those are read back before and after measuring only) with the
/// device: at every
/// sample boundary (next_sample) and, through SettingWatchBlockIo, at most once per
/// `interval` of the measurement's clock while it reads. Keeps the first difference, then
/// stops comparing. Writes nothing and reads no device data.
class SettingWatch {
 public:
  /// Samples are numbered as the report counts them: the warm-up (when `warmup`), then 1, 2, ...
  SettingWatch(probe::Device& device, const probe::Settings& expected, bool warmup,
               probe::Seconds interval = kSettingWatchInterval);
  /// Compare now, unless a difference is already kept.
  void check();
  /// Compare if `interval` has passed on `clock` since the last comparison (or none was made).
  void check_every(const probe::Clock& clock);
  /// The current sample ended: compare, then count the next one.
  void next_sample();
  /// The first difference, or nullopt: "read_ahead_kb changed from 128 to 4096 during
  /// sample 2" (or "cannot read back X: <error> during the warm-up").
  [[nodiscard]] const std::optional<std::string>& change() const { return change_; }

 private:
  [[nodiscard]] std::string sample_label() const;

  probe::Device& device_;
  probe::Settings expected_;
  probe::Seconds interval_;
  int sample_;
  std::optional<probe::Seconds> last_check_;
  std::optional<std::string> change_;
};

/// Forwards everything to `inner`; after each read_at, watch.check_every(inner.clock()).
/// Errors: `inner`'s.
class SettingWatchBlockIo final : public probe::BlockIo {
 public:
  SettingWatchBlockIo(probe::BlockIo& inner, SettingWatch& watch) : inner_(inner), watch_(watch) {}

  probe::Result<void> read_at(std::uint64_t offset_bytes, std::span<std::byte> buffer) override;
  probe::Result<void> flush_cache() override { return inner_.flush_cache(); }
  probe::Result<void> drop_cached(std::uint64_t offset_bytes, std::uint64_t length_bytes) override {
    return inner_.drop_cached(offset_bytes, length_bytes);
  }
  probe::Result<probe::Seconds> settle(probe::Seconds bound) override { return inner_.settle(bound); }
  std::optional<std::uint64_t> completed_bytes() override { return inner_.completed_bytes(); }
  [[nodiscard]] std::uint64_t size_bytes() const override { return inner_.size_bytes(); }
  probe::Clock& clock() override { return inner_.clock(); }

 private:
  probe::BlockIo& inner_;
  SettingWatch& watch_;
};

}  // namespace disktune::tuner
