// SPDX-License-Identifier: GPL-2.0-or-later
// DriveQueue: one drive thread dispatches; callers sleep until their data has reached the host.
#include "tests/emudisk/drive_queue.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <vector>

namespace disktune::emudisk {

struct DriveQueue::Waiting {
  Request request;
  double done_s = -1;  // set by the drive thread when it starts the read
};

DriveQueue::DriveQueue(std::unique_ptr<DriveModel> model, std::FILE* trace) : model_(std::move(model)), trace_(trace) {
  drive_ = std::thread([this] { run_drive(); });
}

DriveQueue::~DriveQueue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  arrived_.notify_all();
  drive_.join();
}

double DriveQueue::now_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
}

void DriveQueue::serve(std::uint64_t offset_bytes, std::uint64_t size_bytes, const std::function<void()>& meanwhile) {
  Waiting self{Request{offset_bytes, size_bytes, 0.0}};
  double done_s = 0;
  {
    std::lock_guard lock(mutex_);
    self.request.arrival_s = now_s();
    waiting_.push_back(&self);
    // A drive that is free now starts a read at once, in this thread: no hand-over to the drive
    // thread (two context switches, tens of microseconds) in front of every idle read.
    if (model_->ready_at(self.request.arrival_s) <= self.request.arrival_s) dispatch_one(self.request.arrival_s);
    arrived_.notify_one();
  }
  // After the read is queued: filling a 1 MiB buffer takes a millisecond, and a read that
  // reached the drive that much late would lose its place in a sequential stream.
  if (meanwhile) meanwhile();
  {
    std::unique_lock lock(mutex_);
    dispatched_.wait(lock, [&] { return self.done_s >= 0; });
    done_s = self.done_s;
  }
  // Sleep to the absolute completion time on CLOCK_MONOTONIC (steady_clock's clock).
  const auto at = epoch_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                               std::chrono::duration<double>(done_s));
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
  const timespec wake{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nullptr) == EINTR) {
  }
}

void DriveQueue::run_drive() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (waiting_.empty()) {
      arrived_.wait(lock);
      continue;
    }
    const double now = now_s();
    const double ready = model_->ready_at(now);
    if (ready > now) {
      // Woken early by an arrival, the loop looks again: the choice is made when the drive is free.
      arrived_.wait_for(lock, std::chrono::duration<double>(ready - now));
      continue;
    }
    dispatch_one(now);
  }
}

void DriveQueue::dispatch_one(double now) {
  const std::size_t held = std::min(waiting_.size(), model_->queue_depth());
  std::vector<Request> requests;
  requests.reserve(held);
  for (std::size_t i = 0; i < held; ++i) requests.push_back(waiting_[i]->request);
  const std::size_t chosen = model_->choose(requests, now);
  Waiting* read = waiting_[chosen];
  read->done_s = model_->start(read->request, now);
  stats_.most_waiting = std::max<std::uint64_t>(stats_.most_waiting, waiting_.size());
  if (trace_)
    std::fprintf(trace_, "%.6f %.6f %.6f %llu %llu %zu\n", read->request.arrival_s, now, read->done_s,
                 static_cast<unsigned long long>(read->request.offset_bytes),
                 static_cast<unsigned long long>(read->request.size_bytes), waiting_.size());
  waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(chosen));

  stats_.reads += 1;
  stats_.bytes += read->request.size_bytes;
  stats_.busy_latency_s += read->done_s - read->request.arrival_s;
  static constexpr std::uint64_t kBucketLimits[] = {4 << 10, 16 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20};
  std::size_t bucket = 0;
  while (bucket < 7 && read->request.size_bytes > kBucketLimits[bucket]) ++bucket;
  stats_.reads_by_size[bucket] += 1;
  dispatched_.notify_all();
}

QueueStats DriveQueue::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

std::string describe(const QueueStats& stats) {
  static const char* const kSizes[] = {"<=4K", "<=16K", "<=64K", "<=128K", "<=256K", "<=512K", "<=1M", ">1M"};
  char line[160];
  std::snprintf(line, sizeof line, "%llu reads, %llu KiB, mean latency %.3f ms, at most %llu waiting; sizes",
                static_cast<unsigned long long>(stats.reads), static_cast<unsigned long long>(stats.bytes / 1024),
                stats.reads ? stats.busy_latency_s / static_cast<double>(stats.reads) * 1e3 : 0.0,
                static_cast<unsigned long long>(stats.most_waiting));
  std::string text = line;
  for (std::size_t i = 0; i < 8; ++i)
    if (stats.reads_by_size[i]) text += std::string(" ") + kSizes[i] + " " + std::to_string(stats.reads_by_size[i]);
  return text;
}

}  // namespace disktune::emudisk
