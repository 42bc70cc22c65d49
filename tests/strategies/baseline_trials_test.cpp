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
  std::vector<TrialKind> kinds;
  std::vector<bool> all_samples;
  std::vector<bool> quick;
  std::uint32_t crc = 0xabcdu;  // every trial's data checksum
  std::vector<std::uint32_t> adopted_crc;  // each adopted baseline's checksum, in order
  std::vector<double> adopted;  // each adopted baseline's median, in order
  std::vector<std::size_t> adopted_after;  // trials run before each adoption

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
    // The check's intent is closed by the baseline recorded again: a death later in the run
    // (a search trial, a unit) is no death in the baseline.
    CHECK_FALSE(run.stop);
    CHECK_FALSE(resumed_store.reopen("another boot").history().baseline_in_flight);
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
    REQUIRE(resumed_store.saved_baseline());
    CHECK(resumed_store.saved_baseline()->data_crc32 == 0x1234u);  // kept for the next resume
  }
  SECTION("the check fails: no baseline, as when it is measured") {
    KindRecorder again({0.0});
    const auto run = strategies::obtain_baseline(again, resumed_store, {}, 1);
    CHECK_FALSE(run.baseline);
    REQUIRE(run.failed);
    CHECK(run.failed->detail == "read error");
  }
}

TEST_CASE("every trial of the settings as found is begun in the store; a death in one measures them again, two restarts end the run",
          "[strategies]") {
  KindRecorder executor({10.0, 11.0, 9.0});
  strategies::MemoryTrialStore store;
  REQUIRE(strategies::obtain_baseline(executor, store, {}, 2).baseline);
  using Intent = std::pair<TrialKind, int>;
  CHECK(store.baseline_intents() ==
        std::vector<Intent>{{TrialKind::baseline, 0}, {TrialKind::baseline_repeat, 1}, {TrialKind::baseline_repeat, 2}});
  CHECK_FALSE(store.reopen("boot").history().baseline_in_flight);  // recorded: nothing in flight

  // A run that died in its second repeat: its intents stand without a baseline record.
  strategies::MemoryTrialStore died;
  REQUIRE_FALSE(died.begin_baseline(TrialKind::baseline, 0));
  REQUIRE_FALSE(died.begin_baseline(TrialKind::baseline_repeat, 1));
  auto resumed = died.reopen("boot");
  KindRecorder again({10.0, 11.0, 9.0});
  const auto run = strategies::obtain_baseline(again, resumed, {}, 2);
  REQUIRE(run.baseline);
  CHECK(run.in_flight == "noise repeat 1");
  CHECK(again.kinds.size() == 3);  // measured again from its first trial

  // Killed again and again in one boot: measured again each time (a user's kill -9 blocks nothing).
  auto store_in = [](strategies::MemoryTrialStore store, const std::string& boot) {
    auto next = store.reopen(boot);
    REQUIRE_FALSE(next.begin_baseline(TrialKind::baseline, 0));
    return next;
  };
  auto killed = store_in(store_in(died, "boot"), "boot").reopen("boot");
  KindRecorder again_killed({10.0, 11.0, 9.0});
  CHECK(strategies::obtain_baseline(again_killed, killed, {}, 2).baseline);
  REQUIRE(killed.history().baseline_in_flight);
  CHECK(killed.history().baseline_in_flight->attempts == 3);
  CHECK(killed.history().baseline_in_flight->restarts == 0);

  // The machine restarted in it twice: the run ends there, nothing run.
  auto once = store_in(died, "boot 2").reopen("boot 2");  // the first death's restart
  CHECK(once.history().baseline_in_flight->restarts == 1);
  KindRecorder after_one({10.0, 11.0, 9.0});
  CHECK(strategies::obtain_baseline(after_one, once, {}, 2).baseline);
  auto third = store_in(died, "boot 2").reopen("boot 3");
  KindRecorder never({10.0});
  const auto ended = strategies::obtain_baseline(never, third, {}, 2);
  CHECK_FALSE(ended.baseline);
  REQUIRE(ended.failed);
  CHECK(ended.failed->status == TrialStatus::crashed);
  CHECK_THAT(ended.failed->detail, Catch::StartsWith("the machine restarted twice while the settings as found were "
                                                     "measured (last in the baseline's first trial)"));
  CHECK(never.kinds.empty());  // nothing run
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
  SECTION("the store is full at the baseline's record: the baseline is kept with the stop") {
    KindRecorder executor({10.0, 10.0});
    strategies::MemoryTrialStore store;
    store.fail_after(2);  // the two trials' intents
    const auto run = strategies::obtain_baseline(executor, store, {}, 1);
    REQUIRE(run.baseline);
    REQUIRE(run.stop);
    CHECK(run.stop->reason == strategies::StopReason::store_failed);
  }
  SECTION("the store is full at a trial's intent: that trial is not run, and there is no baseline") {
    for (const std::size_t writes : {0u, 1u}) {
      KindRecorder executor({10.0, 10.0});
      strategies::MemoryTrialStore store;
      store.fail_after(writes);
      const auto run = strategies::obtain_baseline(executor, store, {}, 1);
      CHECK_FALSE(run.baseline);
      REQUIRE(run.failed);
      CHECK(run.failed->status == TrialStatus::error);
      CHECK(run.failed->detail == "memory store: write: no space left");
      CHECK(executor.kinds.size() == writes);  // the trials whose intents were written
    }
  }
}

TEST_CASE("repeats asked for all samples say so in every request", "[strategies]") {
  KindRecorder executor({10.0, 10.0});
  strategies::MemoryTrialStore store;
  const auto repeats = strategies::measure_repeats(executor, store, {}, 2, true);
  CHECK(repeats.samples.size() == 2);
  CHECK(executor.all_samples == std::vector{true, true});
  CHECK(repeats.measured_s == 2.0);
}

TEST_CASE("the confirmation round goes through the Evaluator to the store and the executor, unit by unit",
          "[strategies]") {
  const strategies::SearchSpace space({}, {}, {}, {});
  KindRecorder executor(std::vector<double>(8, 10.0));
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
  CHECK(announced == 1);
  // 4 passes over 2 contenders, A B A B ..., each unit a trial of its own after its intent record.
  CHECK(executor.kinds == std::vector<TrialKind>(8, TrialKind::confirmation_unit));
  const std::vector<std::tuple<int, int, std::size_t>> intents{{0, 1, 0}, {0, 1, 1}, {0, 2, 0}, {0, 2, 1},
                                                               {0, 3, 0}, {0, 3, 1}, {0, 4, 0}, {0, 4, 1}};
  CHECK(store.unit_intents() == intents);
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
