// SPDX-License-Identifier: GPL-2.0-or-later
// The emulated solid-state disk: a read latency with spread, parallel units, a bandwidth ceiling.
#pragma once

#include "tests/emudisk/drive_model.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace disktune::emudisk {

/// The constants of an emulated SSD. Defaults: a SATA SSD slowed so that the emulator's own
/// cost per read (FUSE and the loop device, tens of microseconds of CPU) stays small beside
/// the model's: 4 units of 250 us reads (16 000 IOPS at most) and SATA's 550 MiB/s ceiling.
struct SsdProfile {
  double read_us = 250;              ///< one read's flash access time, mean
  double spread_pct = 20;            ///< uniform spread of each access around the mean, +-%
  std::uint64_t units = 4;           ///< reads served at once (dies or channels)
  double bandwidth_mib_s = 550;      ///< the link: data of all reads shares it, one after another
  double overhead_us = 10;           ///< command processing per read
  std::uint64_t queue_depth = 32;    ///< commands held (NCQ); served oldest first
  std::uint64_t capacity_bytes = std::uint64_t{64} << 30;
  std::uint64_t seed = 1;            ///< seeds the spread (deterministic per run)
};

/// An emulated SSD's timing: a read takes overhead + access (read_us +- spread_pct, uniform)
/// on the first free unit, then its data crosses the shared link at bandwidth_mib_s after any
/// data ahead of it. With n units and QD >= n, random 4 KiB reads reach n / read_us IOPS until
/// the link caps them; large reads are bound by the link. No seek, no rotation, no reordering.
/// Errors: none (programmer errors abort).
class SsdModel final : public DriveModel {
 public:
  explicit SsdModel(const SsdProfile& profile);

  [[nodiscard]] double ready_at(double now) const override;
  [[nodiscard]] std::size_t choose(std::span<const Request> held, double now) const override;
  double start(const Request& request, double now) override;
  [[nodiscard]] std::size_t queue_depth() const override { return profile_.queue_depth; }
  [[nodiscard]] std::uint64_t capacity_bytes() const override { return profile_.capacity_bytes; }

 private:
  SsdProfile profile_;
  std::vector<double> unit_free_at_;
  double link_free_at_ = 0;
  std::mt19937_64 random_;
};

}  // namespace disktune::emudisk
