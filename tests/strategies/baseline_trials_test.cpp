// SPDX-License-Identifier: GPL-2.0-or-later
// The baseline's trials and the confirmation round go through the run's executor and store.
#include "strategies/baseline_trials.hpp"

#include "strategies/evaluator.hpp"
#include "strategies/trial_executor.hpp"
#include "strategies/trial_store.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace disktune;
using strategies::TrialKind;
using strategies::TrialResult;
using strategies::TrialStatus;

namespace {

// An executor that records each trial's kind and answers from a list of rates [MiB/s]
// (samples rate x 0.99, 1, 1.01); a rate of 0 is a trial that fails.
class KindRecorder final : public strategies::TrialExecutor {
 public:
  explicit KindRecorder(std::vector<double> rates) : rates_(std::move(rates)) {}
  std::optional<strategies::Stop> pending_stop() override { return std::nullopt; }
  strategies::Executed run(const probe::Settings&, const strategies::TrialRequest& request) override {
    kinds.push_back(request.kind);
    all_samples.push_back(request.all_samples);
    const double rate = rates_.at(kinds.size() - 1);
    TrialResult trial;
    trial.status = rate > 0.0 ? TrialStatus::ok : TrialStatus::error;
    trial.detail = rate > 0.0 ? "" : "read error";
    if (rate > 0.0) trial.samples = {0.99 * rate, rate, 1.01 * rate};
    trial.measured_s = 1.0;
    strategies::summarize_samples(trial);
    quick.push_back(request.quick);
    return strategies::TrialMeasurement{trial, 900.0, crc};
  }
  void adopt_baseline(const strategies::Baseline& baseline) override {
    adopted.push_back(baseline.trial.median);
    adopted_crc.push_back(baseline.data_crc32);
    adopted_after.push_back(kinds.size());
  }
  strategies::Confirmed confirm(const std::vector<probe::Settings>& contenders, int rounds,
                                const strategies::ConfirmProgress&) override {
    confirmed_rounds = rounds;
    return std::vector<TrialResult>(contenders.size());
  }
  std::vector<TrialKind> kinds;
  std::vector<bool> all_samples;
  std::vector<bool> quick;
  std::uint32_t crc = 0xabcdu;  // every trial's data checksum
  std::vector<std::uint32_t> adopted_crc;  // each adopted baseline's checksum, in order
  std::vector<double> adopted;  // each adopted baseline's median, in order
  std::vector<std::size_t> adopted_after;  // trials run before each adoption
  int confirmed_rounds = 0;

 private:
  std::vector<double> rates_;
};

}  // namespace

TEST_CASE("the baseline is a baseline trial, adopted at once, then its repeats, then recorded", "[strategies]") {
  KindRecorder executor({10.0, 11.0, 9.0});
  strategies::MemoryTrialStore store;
  const auto run = strategies::obtain_baseline(executor, store, {}, 2);
  REQUIRE(run.baseline);
  CHECK_FALSE(run.resumed);
  CHECK(executor.kinds == std::vector{TrialKind::baseline, TrialKind::baseline_repeat, TrialKind::baseline_repeat});
  CHECK(executor.all_samples == std::vector{false, false, false});
  CHECK(executor.adopted == std::vector{10.0});
  CHECK(executor.adopted_after == std::vector<std::size_t>{1});  // before the repeats: they run with its limits
  CHECK(run.baseline->aa_medians == std::vector{10.0, 11.0, 9.0});
  CHECK(run.baseline->noise_floor_pct > 5.0);
  CHECK(run.baseline->cached_median_mib_s == 900.0);
  CHECK(run.baseline->data_crc32 == 0xabcdu);
  CHECK(run.baseline->measured_s == 3.0);
  REQUIRE(store.saved_baseline());
  CHECK(*store.saved_baseline() == *run.baseline);
}

TEST_CASE("a resumed run's baseline is adopted from the store; one quick trial re-reads its checksum", "[strategies]") {
  KindRecorder first({10.0, 10.0});
  strategies::MemoryTrialStore store;
  REQUIRE(strategies::obtain_baseline(first, store, {}, 1).baseline);
  auto resumed_store = store.reopen("boot");
  SECTION("the disk holds what it held: the saved baseline stands") {
    KindRecorder again({12.0});
    const auto run = strategies::obtain_baseline(again, resumed_store, {}, 1);
    REQUIRE(run.baseline);
    CHECK(run.resumed);
    CHECK(again.kinds == std::vector{TrialKind::baseline_check});
    CHECK(again.quick == std::vector{true});
    CHECK(again.adopted == std::vector{10.0});  // the saved one's rate, not the check's
    CHECK_FALSE(run.checksum_change);
    CHECK(run.baseline->data_crc32 == 0xabcdu);
  }
  SECTION("the disk was written between the runs: later trials are held to what it holds now") {
    KindRecorder again({10.0});
    again.crc = 0x1234u;
    const auto run = strategies::obtain_baseline(again, resumed_store, {}, 1);
    REQUIRE(run.baseline);
    REQUIRE(run.checksum_change);
    CHECK(run.checksum_change->then == 0xabcdu);
    CHECK(run.checksum_change->now == 0x1234u);
    CHECK(run.baseline->data_crc32 == 0x1234u);
    CHECK(again.adopted_crc.back() == 0x1234u);
  }
  SECTION("the check fails: no baseline, as when it is measured") {
    KindRecorder again({0.0});
    const auto run = strategies::obtain_baseline(again, resumed_store, {}, 1);
    CHECK_FALSE(run.baseline);
    REQUIRE(run.failed);
    CHECK(run.failed->detail == "read error");
  }
}

TEST_CASE("a failed baseline or repeat is no baseline; a record that cannot be written is a stop", "[strategies]") {
  SECTION("the first trial fails") {
    KindRecorder executor({0.0});
    strategies::MemoryTrialStore store;
    const auto run = strategies::obtain_baseline(executor, store, {}, 2);
    CHECK_FALSE(run.baseline);
    REQUIRE(run.failed);
    CHECK(run.failed->detail == "read error");
    CHECK_FALSE(store.saved_baseline());
  }
  SECTION("a repeat fails: the repeats stop there") {
    KindRecorder executor({10.0, 0.0, 10.0});
    strategies::MemoryTrialStore store;
    const auto run = strategies::obtain_baseline(executor, store, {}, 2);
    CHECK_FALSE(run.baseline);
    REQUIRE(run.failed);
    CHECK(executor.kinds.size() == 2);
  }
  SECTION("the store is full: the baseline is kept with the stop") {
    KindRecorder executor({10.0, 10.0});
    strategies::MemoryTrialStore store;
    store.fail_after(0);
    const auto run = strategies::obtain_baseline(executor, store, {}, 1);
    REQUIRE(run.baseline);
    REQUIRE(run.stop);
    CHECK(run.stop->reason == strategies::StopReason::store_failed);
  }
}

TEST_CASE("repeats asked for all samples say so in every request", "[strategies]") {
  KindRecorder executor({10.0, 10.0});
  const auto repeats = strategies::measure_repeats(executor, {}, 2, true);
  CHECK(repeats.samples.size() == 2);
  CHECK(executor.all_samples == std::vector{true, true});
  CHECK(repeats.measured_s == 2.0);
}

TEST_CASE("the confirmation round goes through the Evaluator to the store and the executor", "[strategies]") {
  const strategies::SearchSpace space({}, {}, {}, {});
  KindRecorder executor({});
  strategies::MemoryTrialStore store;
  TrialResult baseline;
  baseline.status = TrialStatus::ok;
  strategies::Evaluator evaluator(space, executor, store, baseline);
  int announced = 0;
  strategies::ConfirmHooks hooks;
  hooks.before_measure = [&](const std::vector<probe::Settings>&) { ++announced; };
  const auto round = evaluator.confirm({{}, {}}, 0, 4, hooks);
  REQUIRE(std::holds_alternative<strategies::Round>(round));
  CHECK(std::get<strategies::Round>(round).results.size() == 2);
  CHECK(executor.confirmed_rounds == 4);
  CHECK(announced == 1);
}

TEST_CASE("the baseline's noise is taken between the trials' figures, not their samples' medians", "[strategies]") {
  // Three baseline trials of a pooled percentile: their samples' medians agree (10.0), their
  // figures (the pooled p99's scores, which the search compares) do not.
  const std::vector<std::vector<double>> samples{{9.0, 10.0, 11.0}, {9.0, 10.0, 11.0}, {9.0, 10.0, 11.0}};
  const std::vector<double> figures{10.0, 11.0, 12.0};
  strategies::Baseline baseline;
  strategies::set_noise(baseline, samples, figures);
  CHECK(baseline.aa_medians == figures);
  // Mean pairwise difference (1 + 2 + 1) / 3 over the figures' median 11.
  CHECK(baseline.noise_floor_pct == Approx(100.0 * (4.0 / 3.0) / 11.0));
}
