// SPDX-License-Identifier: GPL-2.0-or-later
// DriveQueue: runs a DriveModel against wall time for the reads of many threads at once.
#pragma once

#include "tests/emudisk/drive_model.hpp"

#include <condition_variable>
#include <cstdio>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace disktune::emudisk {

/// What a DriveQueue served, for the emulator's report at unmount.
struct QueueStats {
  std::uint64_t reads = 0;
  std::uint64_t bytes = 0;
  double busy_latency_s = 0;         ///< sum over reads of (data at host - arrival)
  std::uint64_t most_waiting = 0;    ///< the largest number of reads waiting at one dispatch
  std::uint64_t reads_by_size[8]{};  ///< <=4K, <=16K, <=64K, <=128K, <=256K, <=512K, <=1M, more
};

/// "3 reads, 12 KiB, mean latency 12.6 ms, at most 1 waiting; sizes <=4K 3 ...": one line.
std::string describe(const QueueStats& stats);

/// The drive of an emulator: any number of threads call serve() at once (FUSE's worker
/// threads, one per read the kernel has outstanding); one drive thread hands the model the
/// reads in arrival order, the queue_depth oldest at a time, at the times the model is ready,
/// and each caller returns when the model says its data has reached the host. So the model
/// serves its reads one at a time (hdd) or per unit (ssd), whatever the number of threads.
/// Times: std::chrono::steady_clock (CLOCK_MONOTONIC), in seconds since construction.
class DriveQueue {
 public:
  /// `trace`, when not null, gets one line per read as the drive starts it: arrival, start and
  /// done times [s], offset and size [bytes], reads waiting (the caller keeps it open).
  explicit DriveQueue(std::unique_ptr<DriveModel> model, std::FILE* trace = nullptr);
  ~DriveQueue();
  DriveQueue(const DriveQueue&) = delete;
  DriveQueue& operator=(const DriveQueue&) = delete;

  /// Block until the drive has served a read of `size_bytes` at `offset_bytes` (the caller
  /// keeps the range within capacity_bytes()), running `meanwhile` (if any: filling the
  /// buffer) once the read is queued. Thread-safe.
  void serve(std::uint64_t offset_bytes, std::uint64_t size_bytes, const std::function<void()>& meanwhile = {});
  [[nodiscard]] std::uint64_t capacity_bytes() const { return model_->capacity_bytes(); }
  [[nodiscard]] QueueStats stats() const;

 private:
  struct Waiting;
  [[nodiscard]] double now_s() const;
  void run_drive();
  void dispatch_one(double now);

  std::unique_ptr<DriveModel> model_;
  std::FILE* trace_;
  const std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::condition_variable dispatched_;
  std::deque<Waiting*> waiting_;  // arrival order
  QueueStats stats_;
  bool stopping_ = false;
  std::thread drive_;
};

}  // namespace disktune::emudisk
