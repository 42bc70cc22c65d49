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
// (issue 23: configurations 8x slower had taken all 10 samples).
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
