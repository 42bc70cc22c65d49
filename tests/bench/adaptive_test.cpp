// SPDX-License-Identifier: GPL-2.0-or-later
// Adaptive repetitions: the stop rule by hand, and the loop over a simulated drive.
#include "bench/adaptive.hpp"

#include "tests/support/sim_fixture.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace disktune::bench;

TEST_CASE("sampling_verdict stops when precise, clearly slower or at the maximum", "[bench]") {
  const SamplingPlan plan{3, 10, 0.02, true};
  REQUIRE_FALSE(sampling_verdict(std::vector<double>{10.0, 10.1}, plan, std::nullopt));
  // [10, 10.2] around 10.1: half-width 0.1 / 10.1 = 0.99 % <= 2 %.
  REQUIRE(sampling_verdict(std::vector<double>{10.0, 10.1, 10.2}, plan, std::nullopt) == SamplingStop::precise);
  // [10, 12] around 11: 9.1 %: more samples, unless the incumbent's lower bound is above 12.
  const std::vector<double> wide{10.0, 11.0, 12.0};
  REQUIRE_FALSE(sampling_verdict(wide, plan, 11.5));
  REQUIRE(sampling_verdict(wide, plan, 12.5) == SamplingStop::clearly_slower);
  const SamplingPlan three{3, 3, 0.02, true};
  REQUIRE(sampling_verdict(wide, three, std::nullopt) == SamplingStop::max_samples);
}

// The baseline's noise exceeds the smallest gain (tuner/run/noise.cpp): a tight interval is no
// reason to stop, but a configuration clearly below the incumbent still stops at --repeats
// (configurations 8x slower would take all 10 samples).
TEST_CASE("without the precision stop sampling goes on to the maximum unless clearly slower", "[bench]") {
  SamplingPlan plan{3, 10, 0.02, true};
  plan.stop_when_precise = false;
  const std::vector<double> tight{10.0, 10.1, 10.2};
  REQUIRE_FALSE(sampling_verdict(tight, plan, std::nullopt));
  REQUIRE_FALSE(sampling_verdict(tight, plan, 9.0));
  REQUIRE(sampling_verdict(tight, plan, 80.0) == SamplingStop::clearly_slower);
  const std::vector<double> ten(10, 10.0);
  REQUIRE(sampling_verdict(ten, plan, std::nullopt) == SamplingStop::max_samples);
}

TEST_CASE("run_adaptive discards a warm-up and samples a noisy simulated drive until precise", "[bench]") {
  disktune::probe::SimProfile profile;
  profile.noise_pct = 2.0;
  auto device = disktune::testing::make_sim(disktune::testing::seed_identify(), profile, 7);
  auto io = device->open_io(disktune::probe::IoMode::buffered);
  REQUIRE(io);
  const Workload workload{Method::buffered, 0, 2u << 20, disktune::probe::Seconds(1.0)};
  const SamplingPlan plan{3, 10, 0.005, true};
  auto result = run_adaptive(**io, workload, plan, std::nullopt);
  REQUIRE(result);
  REQUIRE(result->warmup);
  REQUIRE(result->samples.size() >= 3);
  REQUIRE(result->samples.size() <= 10);
  // Either the interval got within 0.5 % or the plan ran out of samples.
  const auto rates = values_of(result->samples);
  const auto verdict = sampling_verdict(rates, plan, std::nullopt);
  REQUIRE(verdict == result->stop);
  // With an incumbent far above, three samples suffice.
  auto slow = run_adaptive(**io, workload, plan, 1000.0);
  REQUIRE(slow);
  REQUIRE(slow->samples.size() == 3);
  REQUIRE(slow->stop == SamplingStop::clearly_slower);
}

namespace {

// A sampler that returns the given scores in order (then the last again).
class ScriptedSampler final : public Sampler {
 public:
  explicit ScriptedSampler(std::vector<double> scores) : scores_(std::move(scores)) {}
  disktune::probe::Result<Sample> sample() override {
    const double v = scores_[std::min(next_++, scores_.size() - 1)];
    return Sample{v, 2u << 20, disktune::probe::Seconds(1.0), false};
  }

 private:
  std::vector<double> scores_;
  std::size_t next_ = 0;
};

}  // namespace

TEST_CASE("a warm-up and a first sample both below the hopeless fraction stop as clearly slower", "[bench]") {
  SamplingPlan plan{3, 10, 0.02, true};
  plan.hopeless_fraction = 0.5;
  ScriptedSampler hopeless({0.3, 0.3, 0.3});
  auto stopped = run_adaptive(hopeless, plan, 100.0, SampleHook{});
  REQUIRE(stopped);
  REQUIRE(stopped->samples.size() == 1);
  REQUIRE(stopped->stop == SamplingStop::clearly_slower);
  // One fast observation of the two (a transient in the warm-up) keeps the min_samples.
  ScriptedSampler transient({0.3, 80.0, 80.0, 80.0});
  auto kept = run_adaptive(transient, plan, 100.0, SampleHook{});
  REQUIRE(kept);
  REQUIRE(kept->samples.size() == 3);
  // Without an incumbent, or with the rule off, nothing is hopeless.
  ScriptedSampler alone({0.3});
  REQUIRE(run_adaptive(alone, plan, std::nullopt, SampleHook{})->samples.size() == 3);
  plan.hopeless_fraction = 0.0;
  REQUIRE(run_adaptive(alone, plan, 100.0, SampleHook{})->samples.size() == 3);
}

namespace {

// A percentile's sampler: each sample `whole` reads (or the completions asked for) spread
// evenly over 1-1000 µs; records what each sample was asked for (0: a whole sample).
class PercentileSampler final : public Sampler {
 public:
  explicit PercentileSampler(std::uint64_t whole) : whole_(whole) {}
  disktune::probe::Result<Sample> sample() override { return take(whole_, 0); }
  disktune::probe::Result<Sample> sample_completions(std::uint64_t completions) override {
    return take(completions, completions);
  }
  std::vector<std::uint64_t> asked;

 private:
  Sample take(std::uint64_t reads, std::uint64_t ask) {
    asked.push_back(ask);
    Sample s{1.0, reads * 4096, disktune::probe::Seconds(static_cast<double>(reads) / 100.0), false};
    s.latency.fraction = 0.99;
    std::vector<LatencyBin> bins;
    for (std::uint64_t i = 1; i <= reads; ++i) bins.push_back({1e6 * static_cast<double>(i) / static_cast<double>(reads), 1});
    add_bins(s.latency, bins);
    s.completions = reads;
    return s;
  }
  std::uint64_t whole_;
};

}  // namespace

TEST_CASE("a first sample below the gain bar ends sampling with no gain; one above it goes on", "[bench]") {
  SamplingPlan plan{3, 10, 0.001, true};
  plan.no_gain_below = 101.5;
  ScriptedSampler tied({100.2, 100.1, 100.3});  // warm-up, then one sample: tied with the incumbent
  auto stopped = run_adaptive(tied, plan, 99.0, SampleHook{});
  REQUIRE(stopped);
  REQUIRE(stopped->samples.size() == 1);
  REQUIRE(stopped->stop == SamplingStop::no_gain);
  REQUIRE(to_string(SamplingStop::no_gain) == "no gain");
  ScriptedSampler faster({104.0, 104.2, 103.9, 104.1});
  auto kept = run_adaptive(faster, plan, 99.0, SampleHook{});
  REQUIRE(kept);
  REQUIRE(kept->samples.size() >= 3);
  plan.no_gain_below.reset();  // off: the minimum samples
  ScriptedSampler off({100.2, 100.1, 100.3, 100.2});
  REQUIRE(run_adaptive(off, plan, 99.0, SampleHook{})->samples.size() >= 3);
}

TEST_CASE("a pooled percentile's later samples take only the completions its interval still needs", "[bench]") {
  SamplingPlan plan{1, 10, 0.02, true};
  PercentileSampler latency(300);  // 3 s at 100 IOPS: too few reads to bound a p99 from above
  auto sized = run_adaptive(latency, plan, std::nullopt, SampleHook{});
  REQUIRE(sized);
  CHECK(sized->stop == SamplingStop::precise);
  // The warm-up and the first sample whole, then the 68 more that bound the p99 (368 in all),
  // which at 1-1000 µs evenly is within ±2 %.
  CHECK(latency.asked == std::vector<std::uint64_t>{0, 0, 68});
  CHECK(completions_of(*pooled_latency(sized->samples)) == 368u);
  // Without the precise stop (the noise floor is above the smallest gain) or before
  // min_samples, whole samples.
  plan.stop_when_precise = false;
  plan.max_samples = 3;
  PercentileSampler whole(300);
  REQUIRE(run_adaptive(whole, plan, std::nullopt, SampleHook{}));
  CHECK(whole.asked == std::vector<std::uint64_t>{0, 0, 0, 0});
  plan = SamplingPlan{3, 10, 0.02, true};
  PercentileSampler minimum(300);
  REQUIRE(run_adaptive(minimum, plan, std::nullopt, SampleHook{}));
  CHECK(std::vector<std::uint64_t>(minimum.asked.begin(), minimum.asked.begin() + 4) ==
        std::vector<std::uint64_t>{0, 0, 0, 0});
}

