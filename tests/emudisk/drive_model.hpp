// SPDX-License-Identifier: GPL-2.0-or-later
// The interface of an emulated drive's timing model: which pending read it serves next, and when.
#pragma once

#include <cstdint>
#include <span>

namespace disktune::emudisk {

/// One read the drive holds: a byte range of the emulated disk and when it arrived.
struct Request {
  std::uint64_t offset_bytes = 0;
  std::uint64_t size_bytes = 0;
  double arrival_s = 0.0;  ///< on the model's clock (seconds since the emulator started)
};

/// A drive's timing, with no clock and no threads of its own (tests/emudisk/drive_queue.hpp
/// runs it against wall time). Times are seconds on one monotonic clock.
class DriveModel {
 public:
  virtual ~DriveModel() = default;
  /// The earliest time at which the drive can start another command (`now` or later).
  [[nodiscard]] virtual double ready_at(double now) const = 0;
  /// Which of `held` (non-empty: the commands in the drive's queue, oldest first) the drive
  /// starts at `now`. Returns an index into `held`.
  [[nodiscard]] virtual std::size_t choose(std::span<const Request> held, double now) const = 0;
  /// Start `request` at `now` (no earlier than ready_at(now)): advance the drive's state and
  /// return the time at which its data has reached the host (>= now).
  virtual double start(const Request& request, double now) = 0;
  /// How many commands the drive holds at once (NCQ depth); the rest wait in arrival order.
  [[nodiscard]] virtual std::size_t queue_depth() const = 0;
  /// The emulated disk's size [bytes].
  [[nodiscard]] virtual std::uint64_t capacity_bytes() const = 0;
};

}  // namespace disktune::emudisk
