// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for the simulated drive's sampler of the fio objectives, and that their optima are found.
#include "bench/adaptive.hpp"
#include "bench/sim_latency.hpp"
#include "bench/sim_sampler.hpp"
#include "bench/stats.hpp"
#include "probe/sim/sim_rules.hpp"
#include "tests/support/coupled_device.hpp"
#include "tests/support/sim_fixture.hpp"
#include "tests/support/sim_space.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include <string>
#include <vector>

using namespace disktune;
using bench::Objective;
using probe::SettingId;
using probe::SettingValue;

namespace {

const std::vector<std::string> kSimulated{"seq-read-direct", "rand-read-iops", "rand-read-latency"};

Objective objective(const std::string& name) {
  auto parsed = bench::parse_objective(name, "");
  REQUIRE(parsed.has_value());
  return *parsed;
}

std::unique_ptr<bench::Sampler> sampler(probe::Device& device, const std::string& name,
                                        double seconds = 1.0) {
  auto made = bench::make_sim_sampler(device, objective(name), probe::Seconds(seconds));
  REQUIRE(made.has_value());
  return std::move(*made);
}

std::vector<double> scores(probe::Device& device, const std::string& name, int count) {
  auto s = sampler(device, name);
  std::vector<double> values;
  for (int i = 0; i < count; ++i) {
    auto sample = s->sample();
    REQUIRE(sample);
    values.push_back(sample->value);
  }
  return values;
}

probe::SimProfile quiet() {
  probe::SimProfile profile;
  profile.noise_pct = 0.0;
  return profile;
}

// The noise sim_sample_noise_pct predicts for a sample of `seconds` of objective `name` on the
// seed drive at its boot settings (2 % environment noise): the completions from a noise-free
// sample's bytes.
double sim_noise(const std::string& name, double seconds) {
  auto exact = testing::make_sim(testing::seed_identify(), quiet());
  auto sample = sampler(*exact, name, seconds)->sample();
  REQUIRE(sample);
  auto workload = bench::sim_workload_of(objective(name));
  REQUIRE(workload.has_value());
  const double completions = static_cast<double>(sample->bytes) / static_cast<double>(workload->block_bytes);
  const auto figures = probe::sim_workload_figures(probe::sim_drive_config(*probe::sim_core_of(*exact)), *workload);
  return bench::sim_sample_noise_pct(objective(name).metric, *workload, figures, completions, 2.0);
}

double quiet_score(probe::Device& device, const std::string& name) {
  auto sample = sampler(device, name)->sample();
  REQUIRE(sample);
  return sample->value;
}

}  // namespace

TEST_CASE("simulated scores are deterministic for a seed and differ between seeds", "[bench]") {
  for (const std::string& name : kSimulated) {
    INFO(name);
    auto a = testing::make_sim(testing::seed_identify(), {}, 7);
    auto b = testing::make_sim(testing::seed_identify(), {}, 7);
    auto c = testing::make_sim(testing::seed_identify(), {}, 8);
    const auto first = scores(*a, name, 5);
    CHECK(first == scores(*b, name, 5));
    CHECK(first != scores(*c, name, 5));
    CHECK(first != scores(*a, name, 5));  // a second sampler of the same settings: new draws
  }
}

TEST_CASE("a simulated sample advances the virtual clock by its duration", "[bench]") {
  auto device = testing::make_sim(testing::seed_identify());
  auto io = device->open_io(probe::IoMode::direct);
  REQUIRE(io);
  const probe::Seconds before = (*io)->clock().now();
  auto s = sampler(*device, "rand-read-iops", 2.5);
  auto sample = s->sample();
  REQUIRE(sample);
  CHECK(sample->elapsed.count() == 2.5);
  CHECK(((*io)->clock().now() - before).count() == Approx(2.5));
  // IOPS * duration * 4 KiB were read.
  CHECK(static_cast<double>(sample->bytes) == Approx(sample->value * 2.5 * 4096).epsilon(1e-6));
}

TEST_CASE("simulated scores follow the objective's figure and the current settings", "[bench]") {
  auto device = testing::make_sim(testing::seed_identify(), quiet());
  const double iops = quiet_score(*device, "rand-read-iops");
  const double p99_us = bench::figure_of(objective("rand-read-latency"),
                                         quiet_score(*device, "rand-read-latency"));
  const double qd1_iops = 1.0 / (8.5e-3 + 30.0 / 7200);  // one avg seek + half a turn, 7200 rpm
  CHECK(iops > qd1_iops);          // 32 sorted requests beat one at a time
  CHECK(p99_us > 1e6 / qd1_iops);  // the 99th percentile lies above the mean
  CHECK(p99_us < 50e3);
  const double before = quiet_score(*device, "seq-read-direct");
  auto s = sampler(*device, "seq-read-direct");
  testing::apply_all(*device, testing::settings_of({{"using_dma", "1"}}));
  auto after = s->sample();  // the settings now in force, not those at creation
  REQUIRE(after);
  CHECK(after->value > before * 1.2);
}

TEST_CASE("the simulated sampler refuses what it does not simulate", "[bench]") {
  testing::CoupledDevice fake;
  auto made = bench::make_sim_sampler(fake, objective("rand-read-iops"), probe::Seconds(1));
  REQUIRE_FALSE(made.has_value());
  CHECK(made.error().code == std::errc::not_supported);
  auto device = testing::make_sim(testing::seed_identify());
  for (const std::string name : {"seq-read", "fio:/tmp/job.fio"}) {
    auto refused = bench::make_sim_sampler(*device, objective(name), probe::Seconds(1));
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().op.find(name) != std::string::npos);
  }
}

TEST_CASE("simulated samples honour the profile's eio and slow faults", "[bench]") {
  probe::SimProfile profile = quiet();
  auto clean = testing::make_sim(testing::seed_identify(), profile);
  profile.faults.push_back({testing::settings_of({{"using_dma", "1"}}), probe::FaultEffect::eio});
  profile.faults.push_back({testing::settings_of({{"unmaskirq", "1"}}), probe::FaultEffect::slow});
  auto faulty = testing::make_sim(testing::seed_identify(), profile);
  testing::apply_all(*faulty, testing::settings_of({{"unmaskirq", "1"}}));
  testing::apply_all(*clean, testing::settings_of({{"unmaskirq", "1"}}));
  CHECK(quiet_score(*faulty, "rand-read-iops") ==
        Approx(quiet_score(*clean, "rand-read-iops") / 4.0));
  testing::apply_all(*faulty, testing::settings_of({{"using_dma", "1"}}));
  auto failed = sampler(*faulty, "rand-read-iops")->sample();
  REQUIRE_FALSE(failed);
  CHECK(failed.error().code == std::make_error_code(std::errc::io_error));
}

TEST_CASE("each simulated objective's optimum over the seed's space comes out of the search",
          "[bench]") {
  // Nothing in the model names a configuration: the best one is whatever the enumeration
  // rates highest, and it moves when the drive's limits move (an 80-wire cable allows UDMA4).
  for (const std::string& name : kSimulated) {
    INFO(name);
    const testing::Rating rate = [&](probe::Device& device, const probe::Settings&) {
      return quiet_score(device, name);
    };
    const testing::Optimum best = testing::brute_force(testing::seed_identify(), quiet(), rate);
    REQUIRE_FALSE(best.configs.empty());
    auto start = testing::make_sim(testing::seed_identify(), quiet());
    CHECK(quiet_score(*start, name) < best.score);  // the boot defaults are not the optimum
    for (const probe::Settings& config : best.configs) {
      INFO(probe::format_settings(config));
      CHECK(config.at(SettingId::using_dma).number() == 1);
      CHECK(probe::format_value(SettingId::xfermode, config.at(SettingId::xfermode)) == "udma2");
    }
    probe::SimProfile cable = quiet();
    cable.cable_80wire = true;
    const testing::Optimum wider = testing::brute_force(testing::seed_identify(), cable, rate);
    REQUIRE_FALSE(wider.configs.empty());
    CHECK(wider.score > best.score);
    for (const probe::Settings& config : wider.configs)
      CHECK(probe::format_value(SettingId::xfermode, config.at(SettingId::xfermode)) == "udma4");
  }
}

TEST_CASE("the adaptive loop samples a simulated objective around its noise-free score",
          "[bench]") {
  for (const std::string& name : kSimulated) {
    INFO(name);
    auto exact = testing::make_sim(testing::seed_identify(), quiet(), 3);
    const double noise_free = quiet_score(*exact, name);
    auto noisy = testing::make_sim(testing::seed_identify(), {}, 3);  // 2 % noise
    auto s = sampler(*noisy, name, 3.0);
    const bench::SamplingPlan plan{5, 30, 0.01, true};
    auto run = bench::run_adaptive(*s, plan, std::nullopt, [] {});
    REQUIRE(run.has_value());
    const std::vector<double> values = bench::values_of(run->samples);
    const double predicted = sim_noise(name, 3.0) / 100.0;
    INFO("predicted noise " << predicted << ", samples " << values.size());
    CHECK(values.size() >= 5);
    // The median of n samples is off by about 1.25 sigma / sqrt(n); allow three times that.
    CHECK(bench::median(values) ==
          Approx(noise_free).epsilon(3.0 * 1.25 * predicted / std::sqrt(double(values.size()))));
    CHECK(bench::cv(values) > predicted / 3.0);  // the drive's noise is there
    CHECK(bench::cv(values) < predicted * 2.0);
  }
}

TEST_CASE("simulated noise shrinks with the completions a sample holds", "[bench]") {
  const probe::SimWorkload random{4096, 32, true};
  const probe::SimWorkload sequential{1u << 20, 16, false};
  // IOPS: cv 0.35 over n reads, in quadrature with the drive's 2 %.
  // Latencies of a pure exponential (1 ms mean): p50 = ln 2 ms, p99 = ln 100 ms, p999 = ln 1000 ms.
  probe::SimFigures exponential;
  exponential.p50_latency_s = 1e-3 * std::log(2.0);
  exponential.p99_latency_s = 1e-3 * std::log(100.0);
  exponential.p999_latency_s = 1e-3 * std::log(1000.0);
  CHECK(bench::sim_sample_noise_pct(bench::Metric::iops, random, exponential, 100, 2.0) == Approx(std::hypot(2.0, 3.5)));
  CHECK(bench::sim_sample_noise_pct(bench::Metric::bw, sequential, exponential, 2500, 2.0) == Approx(std::hypot(2.0, 0.1)));
  // p99 over 300 reads of an exponential tail rests on 3 beyond it: 1 / (ln 100 x sqrt 3) = 12.5 %.
  CHECK(bench::sim_sample_noise_pct(bench::Metric::p99, random, exponential, 300, 2.0) ==
        Approx(std::hypot(2.0, 100.0 / (std::log(100.0) * std::sqrt(3.0)))));
  CHECK(bench::sim_sample_noise_pct(bench::Metric::p99, random, exponential, 30000, 2.0) <
        bench::sim_sample_noise_pct(bench::Metric::p99, random, exponential, 300, 2.0) / 4.0);
  CHECK(bench::sim_sample_noise_pct(bench::Metric::p999, random, exponential, 300, 2.0) >
        bench::sim_sample_noise_pct(bench::Metric::p99, random, exponential, 300, 2.0));
  CHECK(bench::sim_sample_noise_pct(bench::Metric::p99, random, exponential, 0, 2.0) ==
        Approx(std::hypot(2.0, 100.0 / std::log(100.0))));  // no read beyond it: as one
  // Shifted by a 10 ms service time, the same tail is a smaller part of the p99.
  probe::SimFigures shifted = exponential;
  shifted.p50_latency_s += 10e-3;
  shifted.p99_latency_s += 10e-3;
  shifted.p999_latency_s += 10e-3;
  CHECK(bench::sim_sample_noise_pct(bench::Metric::p99, random, shifted, 300, 0.001) ==
        Approx(100.0 * 1e-3 / (shifted.p99_latency_s * std::sqrt(3.0))).epsilon(1e-3));
  CHECK(bench::sim_sample_noise_pct(bench::Metric::iops, random, exponential, 10, 0.0) == 0.0);  // noise-free
  // Measured: the spread of simulated samples follows it (0.3 s samples against 3 s; a
  // percentile's drawn reads 3 s against 30 s: the prediction holds from a few reads beyond
  // the p99 on, and at 0.3 s, 24 reads, there is none).
  for (const std::string& name : kSimulated) {
    INFO(name);
    std::vector<double> spread;
    const bool percentile = objective(name).metric == bench::Metric::p99;
    for (const double seconds : {percentile ? 3.0 : 0.3, percentile ? 30.0 : 3.0}) {
      auto noisy = testing::make_sim(testing::seed_identify(), {}, 5);
      auto s = sampler(*noisy, name, seconds);
      std::vector<double> values;
      for (int i = 0; i < 200; ++i) values.push_back(s->sample()->value);
      spread.push_back(bench::cv(values));
      CHECK(spread.back() == Approx(sim_noise(name, seconds) / 100.0).epsilon(0.25));
    }
    CHECK(spread[0] > spread[1]);
  }
}

TEST_CASE("a simulated percentile sample ends after its completions, the duration its bound", "[bench]") {
  auto exact = testing::make_sim(testing::seed_identify(), quiet());
  // The seed drive reads ~80 random 4 KiB blocks a second at QD1: 12 000 take ~150 s.
  auto long_bound = sampler(*exact, "rand-read-latency", 1000.0)->sample();
  REQUIRE(long_bound);
  CHECK(long_bound->elapsed.count() < 1000.0);
  CHECK(static_cast<double>(long_bound->bytes) / 4096.0 == Approx(12000.0).epsilon(1e-6));
  auto short_bound = sampler(*exact, "rand-read-latency", 3.0)->sample();
  REQUIRE(short_bound);
  CHECK(short_bound->elapsed.count() == Approx(3.0));  // the bound came first
  CHECK(short_bound->bytes < 12000u * 4096u);
  // Sized by sample_completions (run_adaptive's later samples): those reads, the duration the bound.
  auto sized = sampler(*exact, "rand-read-latency", 3.0)->sample_completions(68);
  REQUIRE(sized);
  CHECK(static_cast<double>(sized->bytes) / 4096.0 == Approx(68.0).epsilon(1e-6));
  CHECK(sized->elapsed.count() == Approx(short_bound->elapsed.count() * 68.0 * 4096.0 /
                                         static_cast<double>(short_bound->bytes)).epsilon(1e-6));
  CHECK(sampler(*exact, "rand-read-latency", 3.0)->sample_completions(1000000)->elapsed.count() == Approx(3.0));
  // A rate is never cut short.
  auto iops = sampler(*exact, "rand-read-iops", 1000.0)->sample();
  REQUIRE(iops);
  CHECK(iops->elapsed.count() == Approx(1000.0));
  CHECK(sampler(*exact, "rand-read-iops", 1000.0)->sample_completions(68)->elapsed.count() == Approx(1000.0));
}

TEST_CASE("a simulated percentile draws its reads, and the samples pool toward the model's p99", "[bench]") {
  auto exact = testing::make_sim(testing::seed_identify(), quiet());
  const double model_p99 = bench::figure_of(objective("rand-read-latency"), quiet_score(*exact, "rand-read-latency"));
  CHECK(sampler(*exact, "rand-read-latency", 3.0)->sample()->latency.bins.empty());  // noise-free: the model's figure
  auto noisy = testing::make_sim(testing::seed_identify(), {}, 4);
  auto s = sampler(*noisy, "rand-read-latency", 30.0);
  std::vector<bench::Sample> samples;
  for (int i = 0; i < 10; ++i) {
    samples.push_back(s->sample().value());
    CHECK(bench::completions_of(samples.back().latency) == samples.back().completions);
    CHECK(samples.back().latency.fraction == 0.99);
  }
  const auto pooled = bench::pooled_percentile(*bench::pooled_latency(samples)).value();
  CHECK(pooled.completions > 20000u);  // ~80 IOPS x 30 s x 10
  // Within fio's bucket (1.6 %), the drive's 2 % noise and the draws' spread.
  CHECK(pooled.value_us == Approx(model_p99).epsilon(0.04));
  // The draws are the stream's: the same stream gives the same reads, another other reads.
  const auto figures = probe::sim_workload_figures(probe::sim_drive_config(*probe::sim_core_of(*exact)),
                                                   bench::sim_workload_of(objective("rand-read-latency")).value());
  CHECK(bench::sim_latency_draws(figures, 0.99, 500, 1.0, 7) == bench::sim_latency_draws(figures, 0.99, 500, 1.0, 7));
  CHECK(bench::sim_latency_draws(figures, 0.99, 500, 1.0, 7) != bench::sim_latency_draws(figures, 0.99, 500, 1.0, 8));
  // Twice the scale: every read twice as slow (to fio's bucket).
  const auto once = bench::pooled_percentile(bench::sim_latency_draws(figures, 0.99, 5000, 1.0, 9))->value_us;
  const auto twice = bench::pooled_percentile(bench::sim_latency_draws(figures, 0.99, 5000, 2.0, 9))->value_us;
  CHECK(twice == Approx(2.0 * once).epsilon(0.02));
}
