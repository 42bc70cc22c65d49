// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner over a SIMULATED drive: forked and in-process trials agree; A/A; confirmation round.
#include "tests/support/confirm_round.hpp"
#include "tuner/trial/trial_runner.hpp"

#include "tests/support/measure_baseline.hpp"
#include "tests/support//sim_fixture.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace disktune;
using probe::SettingId;

namespace {

tuner::TrialSettings settings(bool in_process) {
  tuner::TrialSettings s;
  s.workload = bench::Workload{bench::Method::buffered, 0, 256u << 10, probe::Seconds(0.2)};
  s.sampling = bench::SamplingPlan{3, 10, 0.02, true};
  s.timeout = probe::Seconds(10.0);
  s.in_process = in_process;
  s.confirm_rounds = 4;
  return s;
}

probe::Settings dma(const probe::Settings& original) {
  auto config = original;
  config[SettingId::using_dma] = probe::SettingValue(std::int64_t{1});
  return config;
}

}  // namespace

TEST_CASE("a trial run in process gives exactly what the forked trial gives", "[tuner]") {
  auto forked_device = testing::make_sim(testing::seed_identify(), {}, 3);
  auto local_device = testing::make_sim(testing::seed_identify(), {}, 3);
  const auto original = *forked_device->snapshot();
  tuner::TrialRunner forked(*forked_device, original, settings(false));
  tuner::TrialRunner local(*local_device, original, settings(true));
  const auto a = forked.run(dma(original)).result;
  const auto b = local.run(dma(original)).result;
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  REQUIRE(a->status == strategies::TrialStatus::ok);
  REQUIRE(a->samples == b->samples);
  REQUIRE(a->warmup == b->warmup);
  REQUIRE(a->ci_low == b->ci_low);
  REQUIRE(a->samples.size() >= 3);
  REQUIRE(a->ci_low <= a->median);
  REQUIRE(a->median <= a->ci_high);
  REQUIRE(*local_device->snapshot() == original);
}

TEST_CASE("the baseline is measured as separate trials and their noise reported", "[tuner]") {
  auto device = testing::make_sim(testing::seed_identify(), {}, 5);
  const auto original = *device->snapshot();
  tuner::TrialRunner runner(*device, original, settings(true));
  const auto baseline = testing::measure_baseline(runner);
  REQUIRE(baseline.has_value());
  REQUIRE(baseline->aa_medians.size() == 3);  // the first and noise_repeats (2) more
  REQUIRE(baseline->aa_medians.front() == baseline->trial.median);
  REQUIRE(baseline->noise_floor_pct > 0.0);
  REQUIRE(baseline->noise_floor_pct < 5.0);  // 2 % noise per sample: medians differ by far less
  REQUIRE(baseline->measured_s > 2.5 * baseline->trial.measured_s);  // three trials' worth
}

TEST_CASE("a forked baseline's figures cross the child wire whole", "[tuner]") {
  auto forked_device = testing::make_sim(testing::seed_identify(), {}, 6);
  auto local_device = testing::make_sim(testing::seed_identify(), {}, 6);
  const auto original = *forked_device->snapshot();
  tuner::TrialRunner forked(*forked_device, original, settings(false));
  tuner::TrialRunner local(*local_device, original, settings(true));
  const auto a = testing::measure_baseline(forked);
  const auto b = testing::measure_baseline(local);
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  REQUIRE(a->cached_median_mib_s > 0.0);
  REQUIRE(a->data_crc32 != 0u);
  REQUIRE_FALSE(a->trial.sampling_stop.empty());
  REQUIRE(a->trial.settings == original);
  // The first child's whole measurement (trial, cached figure, checksum) matches the
  // in-process one; the noise repeats do not (a forked child draws from the simulated
  // drive's state as the parent left it, so its repeats replay the same samples).
  using Measurement = strategies::TrialMeasurement;
  REQUIRE(static_cast<const Measurement&>(*a) == static_cast<const Measurement&>(*b));
}

TEST_CASE("a quick trial takes the minimum samples; a hopeless one stops at the minimum", "[tuner]") {
  auto device = testing::make_sim(testing::seed_identify(), {}, 2);
  const auto original = *device->snapshot();
  tuner::TrialRunner runner(*device, original, settings(true));
  strategies::TrialRequest quick_request;
  quick_request.quick = true;
  const auto quick = runner.run(dma(original), quick_request).result;
  REQUIRE(quick.has_value());
  REQUIRE(quick->samples.size() == 3);
  // Each kept sample's length is recorded (0.2 s each here: no steady stop on a simulated
  // drive); no completions: seq-read is not fio's.
  REQUIRE(quick->sample_seconds.size() == 3);
  for (const double s : quick->sample_seconds) REQUIRE(s == Approx(0.2).margin(0.05));
  REQUIRE(quick->sample_completions.empty());
  strategies::TrialRequest hopeless_request;
  hopeless_request.incumbent_low = 1000.0;
  const auto hopeless = runner.run(original, hopeless_request).result;
  REQUIRE(hopeless.has_value());
  REQUIRE(hopeless->samples.size() == 3);
  REQUIRE(hopeless->sampling_stop == "clearly slower");
  // Under all_samples (noise above the smallest gain) a clearly slower configuration still
  // stops at the minimum; one that is not takes every sample (--max-repeats), precise or not.
  hopeless_request.all_samples = true;
  const auto hopeless_all = runner.run(original, hopeless_request).result;
  REQUIRE(hopeless_all.has_value());
  REQUIRE(hopeless_all->samples.size() == 3);
  REQUIRE(hopeless_all->sampling_stop == "clearly slower");
  strategies::TrialRequest all_request;
  all_request.all_samples = true;
  const auto all = runner.run(dma(original), all_request).result;
  REQUIRE(all.has_value());
  REQUIRE(all->samples.size() == static_cast<std::size_t>(settings(true).sampling.max_samples));
  REQUIRE(all->sampling_stop == "max samples");
}

TEST_CASE("the confirmation round measures every contender once per round", "[tuner]") {
  auto device = testing::make_sim(testing::seed_identify(), {}, 4);
  const auto original = *device->snapshot();
  tuner::TrialRunner runner(*device, original, settings(false));
  const auto results = testing::confirm_round(runner, {original, dma(original)});
  REQUIRE(results.has_value());
  REQUIRE(results->size() == 2);
  for (const auto& r : *results) {
    REQUIRE(r.status == strategies::TrialStatus::ok);
    REQUIRE(r.samples.size() == 4);
  }
  REQUIRE((*results)[1].median > 2.0 * (*results)[0].median);  // DMA against PIO
  REQUIRE(*device->snapshot() == original);
}

TEST_CASE("a confirmation unit's warm-up is as short as a trial's", "[tuner]") {
  auto device = testing::make_sim(testing::seed_identify(), {}, 4);
  const auto original = *device->snapshot();
  auto latency = settings(true);
  latency.objective = bench::parse_objective("rand-read-latency", "").value();
  latency.workload.duration = probe::Seconds(3.0);
  tuner::TrialRunner runner(*device, original, latency);
  const auto trial = runner.run(original, strategies::TrialRequest{}).result;
  REQUIRE(trial.has_value());
  double kept_s = 0.0;
  for (const double s : trial->sample_seconds) kept_s += s;
  const double warmup_s = trial->measured_s - kept_s;
  const double sample_s = kept_s / static_cast<double>(trial->sample_seconds.size());
  INFO("trial: warm-up " << warmup_s << " s, samples " << sample_s << " s each");
  REQUIRE(warmup_s < 0.2 * sample_s);  // 36 reads against 3 s of them
  const auto results = testing::confirm_round(runner, {original});
  REQUIRE(results.has_value());
  // 4 rounds of a warm-up and a kept sample, each as long as a trial's.
  CHECK((*results)[0].measured_s == Approx(4.0 * (warmup_s + sample_s)).epsilon(0.1));
}

TEST_CASE("the confirmation round reports every unit as it is measured, forked or in process", "[tuner]") {
  const bool in_process = GENERATE(false, true);
  auto device = testing::make_sim(testing::seed_identify(), {}, 4);
  const auto original = *device->snapshot();
  tuner::TrialRunner runner(*device, original, settings(in_process));
  std::vector<tuner::ConfirmUnit> units;
  const auto results = testing::confirm_round(runner, {original, dma(original)}, [&units](const tuner::ConfirmUnit& u) { units.push_back(u); });
  REQUIRE(results.has_value());
  INFO("in process: " << in_process);
  REQUIRE(units.size() == 8);  // 4 rounds x 2 contenders, A B A B ...
  for (std::size_t n = 0; n < units.size(); ++n) {
    const auto& u = units[n];
    REQUIRE(u.round == static_cast<int>(n / 2) + 1);
    REQUIRE(u.rounds == 4);
    REQUIRE(u.contender == n % 2);
    REQUIRE(u.contenders == 2);
    REQUIRE(u.status == strategies::TrialStatus::ok);
    REQUIRE(u.value == (*results)[u.contender].samples[static_cast<std::size_t>(u.round - 1)]);
  }
}
