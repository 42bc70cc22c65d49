// SPDX-License-Identifier: GPL-2.0-or-later
// DriveQueue hands the model one read at a time, at the times it is ready, from many threads.
#include "tests/emudisk/drive_queue.hpp"

#include <catch2/catch.hpp>

#include <mutex>
#include <thread>
#include <utility>
#include <vector>

using disktune::emudisk::DriveModel;
using disktune::emudisk::DriveQueue;
using disktune::emudisk::Request;

namespace {

// A drive that takes 2 ms per read, one at a time, and records each start and completion.
class RecordingModel final : public DriveModel {
 public:
  explicit RecordingModel(std::vector<std::pair<double, double>>& log) : log_(log) {}
  double ready_at(double now) const override { return std::max(now, busy_until_); }
  std::size_t choose(std::span<const Request> held, double) const override { return held.size() - 1; }
  double start(const Request&, double now) override {
    busy_until_ = now + 0.002;
    log_.emplace_back(now, busy_until_);
    return busy_until_;
  }
  std::size_t queue_depth() const override { return 4; }
  std::uint64_t capacity_bytes() const override { return 1 << 20; }

 private:
  std::vector<std::pair<double, double>>& log_;
  double busy_until_ = 0;
};

}  // namespace

TEST_CASE("DriveQueue serves reads from many threads one at a time, when the model is ready", "[emudisk]") {
  std::vector<std::pair<double, double>> log;
  {
    DriveQueue queue(std::make_unique<RecordingModel>(log));
    std::vector<std::thread> readers;
    for (int t = 0; t < 6; ++t)
      readers.emplace_back([&queue, t] {
        for (int i = 0; i < 4; ++i) queue.serve(static_cast<std::uint64_t>(t * 4096), 4096);
      });
    for (auto& r : readers) r.join();
    const auto stats = queue.stats();
    CHECK(stats.reads == 24);
    CHECK(stats.bytes == 24 * 4096);
    CHECK(stats.most_waiting >= 2);  // six threads queued behind the 2 ms reads
    CHECK(stats.most_waiting <= 6);
  }
  REQUIRE(log.size() == 24);
  for (std::size_t i = 1; i < log.size(); ++i) CHECK(log[i].first >= log[i - 1].second);
}
