// SPDX-License-Identifier: GPL-2.0-or-later
// bench/latency_pool: pooling fio's latency buckets and the percentile's order-statistic
// interval, against ranks computed by hand (exact binomial sums in Python's math.comb).
#include "bench/adaptive.hpp"
#include "bench/latency_pool.hpp"

#include <catch2/catch.hpp>

using namespace disktune::bench;

namespace {

// `n` completions at 1, 2, ..., n µs, one per bucket.
LatencyPool one_per_microsecond(int n, double fraction = 0.99) {
  LatencyPool pool{fraction, {}};
  std::vector<LatencyBin> bins;
  for (int i = n; i >= 1; --i) bins.push_back({1000.0 * i, 1});  // in reverse: add_bins sorts
  add_bins(pool, bins);
  return pool;
}

}  // namespace

TEST_CASE("add_bins sums the buckets of several samples, sorted, each latency once", "[bench]") {
  LatencyPool pool{0.99, {}};
  const std::vector<LatencyBin> first{{2000, 3}, {1000, 1}, {5000, 0}};
  const std::vector<LatencyBin> second{{1000, 2}, {3000, 4}};
  add_bins(pool, first);
  add_bins(pool, second);
  CHECK(pool.bins == std::vector<LatencyBin>{{1000, 3}, {2000, 3}, {3000, 4}});
  CHECK(completions_of(pool) == 10u);
}

TEST_CASE("pooled_percentile: fio's percentile and the binomial ranks around it", "[bench]") {
  // N = 1000, p = 0.99, B ~ Binomial(1000, 0.99): l = 983 (P(B <= 982) <= 0.025 < P(B <= 983)),
  // u = 997 (the first u with P(B >= u) <= 0.025); coverage P(983 <= B <= 996) = 0.976095.
  const auto p = pooled_percentile(one_per_microsecond(1000)).value();
  CHECK(p.completions == 1000u);
  CHECK(p.value_us == 990.0);  // the first bucket whose running count reaches 0.99 x 1000
  CHECK(p.low_us == 983.0);
  CHECK(p.high_us == 997.0);
  CHECK(p.coverage == Approx(0.9760947634979772).epsilon(1e-9));
}

TEST_CASE("pooled_percentile has no upper bound from too few completions beyond it", "[bench]") {
  // 300 reads, 3 expected beyond the p99: P(B = 300) = 0.99^300 = 0.049 > 0.025, no u.
  const auto p = pooled_percentile(one_per_microsecond(300)).value();
  CHECK(p.value_us == 297.0);
  CHECK(p.low_us == 293.0);
  CHECK(p.high_us == 0.0);
  CHECK(p.coverage == Approx(0.9885259213651223).epsilon(1e-9));
  CHECK_FALSE(pooled_percentile(LatencyPool{0.99, {}}));
}

TEST_CASE("completions_to_bound is the fewest completions that bound the percentile from above", "[bench]") {
  // ln(0.025) / ln(0.99) = 367.04; ln(0.025) / ln(0.999) = 3687.03.
  CHECK(completions_to_bound(0.99) == 368u);
  CHECK(completions_to_bound(0.999) == 3688u);
  CHECK(pooled_percentile(one_per_microsecond(368))->high_us > 0.0);
  CHECK(pooled_percentile(one_per_microsecond(367))->high_us == 0.0);
  CHECK(pooled_percentile(one_per_microsecond(3688, 0.999))->high_us > 0.0);
  CHECK(pooled_percentile(one_per_microsecond(3687, 0.999))->high_us == 0.0);
}

TEST_CASE("completions_wanted sizes a pooled percentile's next sample by its interval", "[bench]") {
  // 1000 reads: ranks 1-980 at 1-980 µs, then 10 µs apart, so ranks 983, 990 and 997 (the
  // interval and fio's p99, as above) are at 1010, 1080 and 1150 µs: a score half-width of
  // (1/1010 - 1/1150) / 2 x 1080 = 6.509 %, 3.254 times the 2 % target. 1000 x 1.2 x 3.254^2 =
  // 12 709.4 in all: 11 710 more.
  std::vector<Sample> wide(1);
  wide[0].latency.fraction = 0.99;
  std::vector<LatencyBin> bins;
  for (int r = 1; r <= 1000; ++r) bins.push_back({1000.0 * (r <= 980 ? r : 980 + 10 * (r - 980)), 1});
  add_bins(wide[0].latency, bins);
  CHECK(completions_wanted(wide, judged_interval(wide), 0.02) == 11710u);
  // 300 reads cannot bound a p99 from above; their upper side alone (297 against 293 µs:
  // 1.4 %) is within the target, so what is wanted is the 368 that bound it: 68 more.
  std::vector<Sample> few(1);
  few[0].latency = one_per_microsecond(300);
  CHECK(completions_wanted(few, judged_interval(few), 0.02) == 68u);
  // Precise already: still a tenth of the pool (a sample is never a handful of reads).
  std::vector<Sample> many(1);
  many[0].latency = one_per_microsecond(1000);
  CHECK(completions_wanted(many, judged_interval(many), 0.02) == 100u);
  // Not a pooled percentile: a whole sample.
  std::vector<Sample> rates(2);
  rates[0].value = 10.0;
  rates[1].value = 11.0;
  CHECK_FALSE(completions_wanted(rates, judged_interval(rates), 0.02));
}

TEST_CASE("pooled_score_interval turns latency bounds into score bounds", "[bench]") {
  const auto judged = pooled_score_interval(one_per_microsecond(1000)).value();
  CHECK(judged.center == Approx(1e6 / 990.0));
  CHECK(judged.interval.low == Approx(1e6 / 997.0));  // the slowest latency is the lowest score
  CHECK(judged.interval.high == Approx(1e6 / 983.0));
  // Without an upper latency bound the score has no lower one.
  CHECK(pooled_score_interval(one_per_microsecond(300))->interval.low == 0.0);
}

TEST_CASE("judged_interval pools the samples' latencies and ignores their own figures", "[bench]") {
  // Two samples of 500 reads: 1..500 µs and 501..1000 µs. Each alone has a p99 near its top;
  // pooled they are the 1000 reads above, whose p99 is 990 µs.
  std::vector<Sample> samples(2);
  for (int s = 0; s < 2; ++s) {
    samples[s].value = 1.0;  // a figure the pooled interval must not use
    samples[s].latency.fraction = 0.99;
    std::vector<LatencyBin> bins;
    for (int i = 1; i <= 500; ++i) bins.push_back({1000.0 * (500 * s + i), 1});
    add_bins(samples[s].latency, bins);
  }
  const auto judged = judged_interval(samples);
  CHECK(judged.pooled);
  CHECK(judged.best_sample == 1.0);
  CHECK(judged.center == Approx(1e6 / 990.0));
  CHECK(judged.interval.low == Approx(1e6 / 997.0));
  REQUIRE(pooled_latency(samples));
  CHECK(completions_of(*pooled_latency(samples)) == 1000u);
  // One sample without buckets: the samples' median interval instead.
  samples[1].latency.bins.clear();
  CHECK_FALSE(pooled_latency(samples));
  CHECK(judged_interval(samples).center == 1.0);
}

TEST_CASE("a pooled interval without a lower bound is never precise", "[bench]") {
  SamplingPlan plan;
  plan.min_samples = 1;
  plan.max_samples = 10;
  const ScoreInterval open{Interval{0.0, 1010.0, 0.98}, 1000.0, false, 0.0};
  CHECK_FALSE(sampling_verdict(open, 1, plan, std::nullopt));
  // ... but it can be clearly slower: its high end is below the incumbent's low.
  CHECK(sampling_verdict(open, 1, plan, 1100.0) == SamplingStop::clearly_slower);
  const ScoreInterval tight{Interval{990.0, 1010.0, 0.95}, 1000.0, false, 0.0};
  // Pooled: clearly slower only from two samples, each below the incumbent's bound too.
  ScoreInterval pooled = open;
  pooled.pooled = true;
  pooled.best_sample = 1050.0;
  CHECK_FALSE(sampling_verdict(pooled, 1, plan, 1100.0));  // one sample: never on its own
  CHECK(sampling_verdict(pooled, 2, plan, 1100.0) == SamplingStop::clearly_slower);
  pooled.best_sample = 1200.0;  // a sample above the incumbent's bound: the samples disagree
  CHECK_FALSE(sampling_verdict(pooled, 2, plan, 1100.0));
  CHECK(sampling_verdict(tight, 1, plan, std::nullopt) == SamplingStop::precise);
}

TEST_CASE("fio_bucket_ns buckets a latency as fio does", "[bench]") {
  // From the json+ capture: buckets 644, 652, 660, 668 ns (640-647, 648-655, ...).
  CHECK(fio_bucket_ns(640.0) == 644.0);
  CHECK(fio_bucket_ns(647.9) == 644.0);
  CHECK(fio_bucket_ns(648.0) == 652.0);
  CHECK(fio_bucket_ns(123.0) == 123.0);  // below 128 ns: itself
  CHECK(fio_bucket_ns(128.0) == 129.0);  // 128-129: two wide, valued at 129
  // 123392 ns, the capture's p99 bucket: 122880-123903, 1024 wide; 9664 its first.
  CHECK(fio_bucket_ns(123000.0) == 123392.0);
  CHECK(fio_bucket_ns(123903.0) == 123392.0);
  CHECK(fio_bucket_ns(123904.0) == 124416.0);
  CHECK(fio_bucket_ns(9600.0) == 9664.0);
}
