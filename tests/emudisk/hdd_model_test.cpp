// SPDX-License-Identifier: GPL-2.0-or-later
// The emulated hard disk's timing against its defining formulas (on the model's own clock).
#include "tests/emudisk/hdd_model.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

using disktune::emudisk::HddModel;
using disktune::emudisk::HddProfile;
using disktune::emudisk::Request;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

HddProfile flat_profile() {
  HddProfile p;
  p.inner_mib_s = p.outer_mib_s;  // one zone: a track holds the same bytes everywhere
  return p;
}

// Mean service time [s] of `count` 4 KiB reads at uniformly random offsets, one at a time.
double mean_random_read_s(HddModel& model, std::uint64_t capacity, int count) {
  std::mt19937_64 random(7);
  std::uniform_int_distribution<std::uint64_t> block(0, capacity / 4096 - 1);
  double now = 0.0, total = 0.0;
  for (int i = 0; i < count; ++i) {
    now += 0.0001;  // the host's turnaround between reads
    const double done = model.start(Request{block(random) * 4096, 4096, now}, now);
    total += done - now;
    now = done;
  }
  return total / count;
}

// Mean MiB/s of reading `bytes` sequentially from `from` in `chunk` requests, 50 us apart.
double sequential_mib_s(HddModel& model, std::uint64_t from, std::uint64_t bytes, std::uint64_t chunk) {
  double now = 1.0;
  const double begin = now;
  for (std::uint64_t at = from; at < from + bytes; at += chunk) now = model.start(Request{at, chunk, now}, now) + 50e-6;
  return static_cast<double>(bytes) / kMiB / (now - begin);
}

}  // namespace

TEST_CASE("HddModel counts a track as one revolution of the media rate", "[emudisk]") {
  const HddProfile p = flat_profile();
  HddModel model(p);
  const double track_bytes = p.outer_mib_s * kMiB * 60.0 / p.rpm;
  CHECK(model.revolutions_to(track_bytes) == Approx(1.0).epsilon(1e-12));
  CHECK(model.revolutions_to(2.5 * track_bytes) == Approx(2.5).epsilon(1e-12));
}

TEST_CASE("HddModel seeks on the square-root curve and not at all within a track", "[emudisk]") {
  const HddProfile p = flat_profile();
  HddModel model(p);
  const double capacity = static_cast<double>(p.capacity_bytes);
  CHECK(model.seek_s(0, 1000) == 0.0);
  CHECK(model.seek_s(0, capacity - 1) == Approx(p.full_seek_ms / 1e3).epsilon(1e-4));
  CHECK(model.seek_s(0, capacity / 4) == Approx((p.min_seek_ms + (p.full_seek_ms - p.min_seek_ms) * 0.5) / 1e3).epsilon(1e-4));
  CHECK(model.seek_s(capacity / 4, 0) == model.seek_s(0, capacity / 4));
}

TEST_CASE("HddModel serves a random read at QD1 in a mean seek plus half a revolution", "[emudisk]") {
  const HddProfile p = flat_profile();
  HddModel model(p);
  const double mean_seek_s = (p.min_seek_ms + (p.full_seek_ms - p.min_seek_ms) * 8.0 / 15.0) / 1e3;
  const double transfer_s = 4096.0 / (p.outer_mib_s * kMiB);
  const double expected = p.overhead_us / 1e6 + mean_seek_s + 30.0 / p.rpm + transfer_s;
  CHECK(mean_random_read_s(model, p.capacity_bytes, 20000) == Approx(expected).epsilon(0.02));
}

TEST_CASE("HddModel streams sequential reads at the zone's media rate through its read-ahead buffer", "[emudisk]") {
  HddProfile p;  // zones: 160 MiB/s outside, 80 inside
  HddModel model(p);
  CHECK(sequential_mib_s(model, 0, 64 << 20, 128 << 10) == Approx(p.outer_mib_s).epsilon(0.03));
  HddModel inner(p);
  CHECK(sequential_mib_s(inner, p.capacity_bytes - (64 << 20), 64 << 20, 128 << 10) == Approx(p.inner_mib_s).epsilon(0.03));

  SECTION("without the buffer each read waits for its sector to come round again") {
    p.cache_kib = 0;
    HddModel no_buffer(p);
    // The next read's first sector has just passed: a whole revolution, then its 0.78 ms transfer.
    const double one_per_revolution = 0.125 / (60.0 / p.rpm + 0.125 / p.outer_mib_s);
    CHECK(sequential_mib_s(no_buffer, 0, 16 << 20, 128 << 10) == Approx(one_per_revolution).epsilon(0.05));
  }
}

TEST_CASE("HddModel's NCQ serves the read with the shortest positioning time first", "[emudisk]") {
  const HddProfile p = flat_profile();
  HddModel model(p);
  const double track_bytes = p.outer_mib_s * kMiB * 60.0 / p.rpm;
  // The head ends the first read at track 0; a read far away and one on the next track.
  const double done = model.start(Request{0, 4096, 0.0}, 0.0);
  const std::vector<Request> held{{p.capacity_bytes / 2, 4096, done}, {static_cast<std::uint64_t>(1.5 * track_bytes), 4096, done}};
  CHECK(model.choose(held, done) == 1);
  CHECK(model.positioning_s(held[1], done) < model.positioning_s(held[0], done));
}

TEST_CASE("HddModel gains random IOPS from a deeper reorder window", "[emudisk]") {
  auto iops_at_depth = [](std::size_t depth) {
    HddProfile p = flat_profile();
    HddModel model(p);
    std::mt19937_64 random(3);
    std::uniform_int_distribution<std::uint64_t> block(0, p.capacity_bytes / 4096 - 1);
    std::vector<Request> held;
    double now = 0.0;
    const int reads = 3000;
    for (int i = 0; i < reads; ++i) {
      while (held.size() < depth) held.push_back(Request{block(random) * 4096, 4096, now});
      const std::size_t chosen = model.choose(held, now);
      now = model.start(held[chosen], now);
      held.erase(held.begin() + static_cast<std::ptrdiff_t>(chosen));
    }
    return reads / now;
  };
  const double qd1 = iops_at_depth(1), qd32 = iops_at_depth(32);
  INFO("QD1 " << qd1 << " IOPS, QD32 " << qd32 << " IOPS");
  CHECK(qd1 == Approx(1.0 / (0.0001 + 0.00847 + 30.0 / 7200 + 4096.0 / (160 * kMiB))).epsilon(0.03));
  CHECK(qd32 > 2.0 * qd1);  // SPTF over 32 commands: seek and rotational wait both shrink
}

TEST_CASE("HddModel serves held reads that follow one another from the first, whatever SPTF says", "[emudisk]") {
  const HddProfile p = flat_profile();
  HddModel model(p);
  const double done = model.start(Request{p.capacity_bytes / 2, 4096, 0.0}, 0.0);  // the head far away
  // Three pieces of one window, held out of order: the run's first (at 8 MiB) goes first.
  const std::vector<Request> held{{9 << 20, 1 << 20, done}, {10 << 20, 1 << 20, done}, {8 << 20, 1 << 20, done}};
  CHECK(model.choose(held, done) == 2);
}
