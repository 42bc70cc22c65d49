// SPDX-License-Identifier: GPL-2.0-or-later
// The steady-rate stop: the pure rule on chunk ends, and samples that stop early measuring as full-length ones.
#include "bench/adaptive.hpp"
#include "bench/benchmark.hpp"
#include "bench/steady.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

using namespace disktune;
using bench::SteadyRule;

namespace {

constexpr std::uint64_t kMib = 1u << 20;
constexpr std::uint64_t kChunk = 2 * kMib;

SteadyRule enabled_rule() {
  SteadyRule rule;
  rule.enabled = true;
  return rule;
}

// Chunk ends of a device reading `mib_s` steadily after a first chunk that takes `first_s`.
std::vector<double> steady_ends(double mib_s, double first_s, double until_s) {
  std::vector<double> ends{first_s};
  while (ends.back() < until_s) ends.push_back(ends.back() + 2.0 / mib_s);
  return ends;
}

// A SIMULATED device on virtual time whose n-th read (0-based) takes seconds_of(n); it holds
// the sample's reads in bursts or ramps as a test needs. Flushes, drops and settles cost nothing.
class ShapedIo final : public probe::BlockIo {
 public:
  explicit ShapedIo(std::function<double(std::size_t)> seconds_of) : seconds_of_(std::move(seconds_of)) {}
  probe::Result<void> read_at(std::uint64_t, std::span<std::byte>) override {
    clock_.advance(probe::Seconds(seconds_of_(reads_++)));
    return {};
  }
  probe::Result<void> flush_cache() override {
    reads_ = 0;  // every sample starts its shape again
    return {};
  }
  probe::Result<void> drop_cached(std::uint64_t, std::uint64_t) override { return {}; }
  probe::Result<probe::Seconds> settle(probe::Seconds) override { return probe::Seconds{0.0}; }
  std::optional<std::uint64_t> completed_bytes() override { return std::nullopt; }
  [[nodiscard]] std::uint64_t size_bytes() const override { return 4096 * kMib; }
  probe::Clock& clock() override { return clock_; }

 private:
  std::function<double(std::size_t)> seconds_of_;
  probe::VirtualClock clock_;
  std::size_t reads_ = 0;
};

bench::Sample sample_of(ShapedIo& io, bool steady) {
  auto sample = bench::run_sample(io, bench::disk_read_workload(probe::Seconds(3.0), steady));
  REQUIRE(sample);
  return *sample;
}

}  // namespace

TEST_CASE("a steady rate is found once the minimum time has passed, at the device's rate", "[bench]") {
  const SteadyRule rule = enabled_rule();
  const auto ends = steady_ends(100.0, 0.3, 0.9);  // 0.9 s < a third of 3 s
  REQUIRE_FALSE(bench::steady_rate(ends, kChunk, rule, 3.0));
  const auto later = steady_ends(100.0, 0.3, 1.01);
  const auto rate = bench::steady_rate(later, kChunk, rule, 3.0);
  REQUIRE(rate);
  // The slow first chunk is ramp: the rate is the device's, 100 MiB/s.
  REQUIRE(*rate == Approx(100.0 * kMib).epsilon(1e-9));
}

TEST_CASE("no steady rate while disabled, with too few chunks, or while the rate drifts", "[bench]") {
  SteadyRule off = enabled_rule();
  off.enabled = false;
  REQUIRE_FALSE(bench::steady_rate(steady_ends(100.0, 0.02, 2.0), kChunk, off, 3.0));
  // 12 chunks of 2 MiB in 1.2 s: fewer than min_window_chunks (16).
  REQUIRE_FALSE(bench::steady_rate(steady_ends(20.0, 0.1, 1.2), kChunk, enabled_rule(), 3.0));
  // A device slowing down by 10 % per second (a cache running out): the halves disagree.
  std::vector<double> slowing{0.02};
  while (slowing.back() < 2.9) slowing.push_back(slowing.back() + 0.02 * (1.0 + 0.1 * slowing.back()));
  for (std::size_t n = 20; n <= slowing.size(); ++n)
    REQUIRE_FALSE(bench::steady_rate(std::span(slowing).first(n), kChunk, enabled_rule(), 3.0));
}

TEST_CASE("reads completing in bursts have the steady rate of the bursts, wherever the sample stops", "[bench]") {
  // Throttled as a cgroup blkio cap does: every 6th chunk waits 90 ms, the others 1 ms
  // (12 MiB per 95 ms: 126.3 MiB/s), as measured on a 100 IOPS loop device.
  std::vector<double> ends;
  double t = 0.0;
  for (int i = 0; t < 2.5; ++i) ends.push_back(t += (i % 6 == 0 ? 0.090 : 0.001));
  const double bursts_mib_s = 12.0 / 0.095;
  bool found = false;
  for (std::size_t n = 16; n <= ends.size(); ++n)
    if (const auto rate = bench::steady_rate(std::span(ends).first(n), kChunk, enabled_rule(), 3.0)) {
      found = true;
      REQUIRE(*rate / kMib == Approx(bursts_mib_s).epsilon(0.02));
    }
  REQUIRE(found);
}

TEST_CASE("projected_rate extends the bytes read at the steady rate to the whole duration", "[bench]") {
  // 100 MiB in 1 s, then 150 MiB/s for the remaining 2 s: 400 MiB in 3 s.
  REQUIRE(bench::projected_rate(100 * kMib, 1.0, 150.0 * kMib, 3.0) == Approx(400.0 / 3.0 * kMib));
}

TEST_CASE("a sample that stops on a steady rate measures what a full-length sample measures", "[bench]") {
  // A slow start (the first 4 reads at a quarter of the rate, as before readahead is under
  // way), then 120 MiB/s: bytes over elapsed of a short sample would read low.
  ShapedIo io([](std::size_t n) { return (n < 4 ? 4.0 : 1.0) * 2.0 / 120.0; });
  const bench::Sample full = sample_of(io, false);
  const bench::Sample steady = sample_of(io, true);
  REQUIRE_FALSE(full.steady);
  REQUIRE(full.elapsed.count() >= 3.0);
  REQUIRE(steady.steady);
  REQUIRE(steady.elapsed.count() < 1.5);  // stopped at under half the duration
  REQUIRE(steady.value == Approx(full.value).epsilon(0.005));
  // Bytes over elapsed would have been biased low by the start, beyond what the winner rule's 2 % allows.
  const double plain = static_cast<double>(steady.bytes) / kMib / steady.elapsed.count();
  REQUIRE(plain < 0.97 * full.value);
}

TEST_CASE("a sample whose rate keeps changing runs its whole duration", "[bench]") {
  // Each read 1 % slower than the one before: never steady.
  ShapedIo io([](std::size_t n) { return 2.0 / 200.0 * (1.0 + 0.01 * static_cast<double>(n)); });
  const bench::Sample sample = sample_of(io, true);
  REQUIRE_FALSE(sample.steady);
  REQUIRE(sample.elapsed.count() >= 3.0);
  REQUIRE(sample.value == Approx(static_cast<double>(sample.bytes) / kMib / sample.elapsed.count()));
}

TEST_CASE("with the steady stop the warm-up may end at half the kept samples' minimum time", "[bench]") {
  ShapedIo io([](std::size_t) { return 2.0 / 120.0; });  // a steady 120 MiB/s
  const bench::Workload workload = bench::disk_read_workload(probe::Seconds(3.0), true);
  bench::ReadSampler sampler(io, workload);
  auto sampled = bench::run_adaptive(sampler, bench::SamplingPlan{3, 3, 0.02, true}, std::nullopt, {});
  REQUIRE(sampled);
  REQUIRE(sampled->warmup);
  REQUIRE(sampled->warmup->steady);
  REQUIRE(sampled->warmup->elapsed.count() < 0.6);  // from 0.5 s on
  for (const auto& kept : sampled->samples) {
    REQUIRE(kept.elapsed.count() >= 1.0);  // from a third of 3 s on
    REQUIRE(kept.value == Approx(120.0));
  }
  REQUIRE(sampled->warmup->value == Approx(120.0));
}
