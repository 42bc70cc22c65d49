// SPDX-License-Identifier: GPL-2.0-or-later
// Clock: the time source of measurements; real (steady_clock) or virtual (simulation).
#pragma once

#include <chrono>

namespace disktune::probe {

/// Seconds as a double: every measured duration in disktune uses this unit.
using Seconds = std::chrono::duration<double>;

/// A monotonic time source. Measurements read it only through this interface so that the
/// simulated drive can run on virtual time (a full simulated tune takes seconds, docs/architecture.md).
class Clock {
 public:
  virtual ~Clock() = default;
  /// Time since an arbitrary fixed origin.
  [[nodiscard]] virtual Seconds now() const = 0;
};

/// std::chrono::steady_clock.
class SteadyClock final : public Clock {
 public:
  [[nodiscard]] Seconds now() const override {
    return std::chrono::duration_cast<Seconds>(std::chrono::steady_clock::now().time_since_epoch());
  }
};

/// Virtual time that moves only when advanced (by the simulated drive's I/O model).
class VirtualClock final : public Clock {
 public:
  [[nodiscard]] Seconds now() const override { return now_; }
  /// Move time forward by `delta` (>= 0).
  void advance(Seconds delta) { now_ += delta; }

 private:
  Seconds now_{0.0};
};

}  // namespace disktune::probe
