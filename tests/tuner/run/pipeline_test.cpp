// SPDX-License-Identifier: GPL-2.0-or-later
// The pipeline with an in-memory store: resume, quarantine, the decision rule, budget and stops.
#include "tuner/run/pipeline.hpp"

#include "strategies/registry.hpp"
#include "tests/support/ok_trial.hpp"
#include "tests/support/pipeline_fixture.hpp"
#include "tests/support/round_keeping_store.hpp"
#include "tests/support/seed_like_identify.hpp"
#include "tests/support/sim_fixture.hpp"
#include "tests/support/trial_settings.hpp"
#include "tuner/trial/child_executor.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

using namespace disktune;
using probe::SettingId;
using strategies::TrialResult;
using strategies::TrialStatus;

using testing::FakeExecutor;
using testing::get;
using testing::io_support_helps;
using testing::run;
using testing::seed_space;
using testing::RoundKeepingStore;


TEST_CASE("pipeline: an intent without a result is quarantined on resume, and the quarantine survives", "[tuner]") {
  const auto space = seed_space({SettingId::multcount, SettingId::io_support});
  probe::Settings suspect = space.baseline();
  suspect[SettingId::io_support] = probe::SettingValue(std::int64_t{3});
  REQUIRE(space.contains(suspect));
  REQUIRE(suspect != space.baseline());
  strategies::MemoryTrialStore crashed_run("boot-1");
  REQUIRE_FALSE(crashed_run.begin(suspect, false));  // the process died in this trial
  for (const std::string boot : {"boot-2", "boot-1-twice"}) {
    CAPTURE(boot);
    strategies::MemoryTrialStore before = crashed_run;
    if (boot == "boot-1-twice") REQUIRE_FALSE(before.begin(suspect, false));  // died in it twice
    strategies::MemoryTrialStore store = before.reopen(boot == "boot-2" ? "boot-2" : "boot-1");
    FakeExecutor executor(io_support_helps);
    executor.original_ = space.baseline();
    const auto result = run(space, "exhaustive", store, executor);
    for (const auto& config : executor.ran_) REQUIRE(get(config, SettingId::io_support) != 3);  // never applied
    const auto crashed = std::find_if(result.trials.begin(), result.trials.end(),
                                      [&](const TrialResult& t) { return t.settings == suspect; });
    REQUIRE(crashed != result.trials.end());
    REQUIRE(crashed->status == TrialStatus::crashed);
    REQUIRE(get(result.best.settings, SettingId::io_support) != 3);
    // Resumed once more: the crashed verdict is a recorded result now, and still never applied.
    strategies::MemoryTrialStore again = store.reopen("boot-3");
    FakeExecutor later(io_support_helps);
    later.original_ = space.baseline();
    const auto resumed = run(space, "exhaustive", again, later);
    REQUIRE(later.ran_.empty());  // every trial came from the store
    for (const auto& trial : resumed.trials)
      if (trial.settings == suspect) REQUIRE(trial.status == TrialStatus::crashed);
  }
}

TEST_CASE("pipeline: an attempt that died once in this boot is run once more", "[tuner]") {
  const auto space = seed_space({SettingId::io_support});
  const probe::Settings config = space.with_choice(space.baseline(), 0, 0) == space.baseline()
                                     ? space.with_choice(space.baseline(), 0, 1)
                                     : space.with_choice(space.baseline(), 0, 0);
  strategies::MemoryTrialStore crashed_run("boot-1");
  REQUIRE_FALSE(crashed_run.begin(config, false));
  strategies::MemoryTrialStore store = crashed_run.reopen("boot-1");
  FakeExecutor executor(io_support_helps);
  const auto result = run(space, "exhaustive", store, executor);
  REQUIRE(std::count(executor.ran_.begin(), executor.ran_.end(), config) == 1);
}

TEST_CASE("pipeline: the decision keeps the baseline when every gain is within the noise", "[tuner]") {
  const auto space = seed_space({SettingId::multcount, SettingId::io_support});
  FakeExecutor executor([](const probe::Settings& c) { return get(c, SettingId::io_support) == 3 ? 10.1 : 10.0; });
  strategies::MemoryTrialStore store;
  const auto result = run(space, "one-at-a-time", store, executor);
  REQUIRE(result.exit_code == tuner::kExitOk);
  REQUIRE(result.best.id == 0);
  REQUIRE_FALSE(result.confirmation);
  FakeExecutor helps(io_support_helps);
  strategies::MemoryTrialStore other;
  const auto tuned = run(space, "one-at-a-time", other, helps);
  REQUIRE(tuned.confirmation);
  REQUIRE(get(tuned.best.settings, SettingId::io_support) == 3);
}

TEST_CASE("pipeline: close contenders get extra confirmation rounds, each stored once and replayed on resume",
          "[tuner]") {
  const auto space = seed_space({SettingId::io_support});
  const auto rate = [](const probe::Settings& c) { return get(c, SettingId::io_support) == 3 ? 10.3 : 10.0; };
  FakeExecutor executor(rate);
  executor.confirm_spread_ = 0.05;  // 3 % apart, +-5 % samples: the round cannot separate them
  RoundKeepingStore store;
  const auto first = run(space, "exhaustive", store, executor);
  REQUIRE(first.confirmation);
  REQUIRE(store.asked == std::vector<int>{0, 1, 2, 3});
  REQUIRE(testing::measured_calls(store.inner()) == 4);  // every extra round measured, none taken from round 0
  for (const auto& r : first.confirmation->results) REQUIRE(r.samples.size() == 12);
  // Resumed: every round comes from the store, pooled as before, nothing measured again.
  FakeExecutor resumed(rate);
  resumed.confirm_spread_ = 0.05;
  const auto again = run(space, "exhaustive", store, resumed);
  REQUIRE(resumed.confirm_units_ == 0);
  REQUIRE(again.confirmation);
  for (std::size_t i = 0; i < again.confirmation->results.size(); ++i)
    REQUIRE(again.confirmation->results[i].samples == first.confirmation->results[i].samples);
}

TEST_CASE("pipeline: --time-budget bounds the extra confirmation rounds", "[tuner]") {
  const auto space = seed_space({SettingId::io_support});
  FakeExecutor executor([](const probe::Settings& c) { return get(c, SettingId::io_support) == 3 ? 10.3 : 10.0; });
  executor.confirm_spread_ = 0.05;
  RoundKeepingStore store;
  auto strategy = strategies::make_strategy("exhaustive");
  std::ostringstream log;
  // The baseline and the two trials take 3 s; a round of 3 passes over 4 contenders costs 8 s
  // (2 x 1/3 s per unit): 15 s hold the first round and no extra one.
  const tuner::PipelineInput input{space, **strategy, space.baseline(), "test", true, std::nullopt, 15.0, true,
                                   testing::pipeline_trial_settings()};
  const auto result = tuner::run_pipeline(input, store, executor, log);
  INFO(log.str());
  REQUIRE(result.confirmation);
  REQUIRE(store.asked == std::vector<int>{0});
}

TEST_CASE("pipeline: the trial budget ends the search, then the confirmation round decides", "[tuner]") {
  const auto space = seed_space({SettingId::multcount, SettingId::io_support});
  FakeExecutor executor(io_support_helps);
  strategies::MemoryTrialStore store;
  const auto result = run(space, "exhaustive", store, executor, 3);
  REQUIRE(result.search_trials == 3);
  REQUIRE(executor.ran_.size() == 3);
  REQUIRE_FALSE(result.budget_left);
  REQUIRE(result.exit_code == tuner::kExitOk);
  REQUIRE(store.intents().size() == 3);
  REQUIRE(store.results().size() == 3);
}

TEST_CASE("pipeline: a budget that ends before any trial is no answer; untried settings are named", "[tuner]") {
  const auto space = seed_space({SettingId::multcount, SettingId::io_support});
  FakeExecutor executor(io_support_helps);
  auto strategy = strategies::make_strategy("coordinate-descent");
  std::ostringstream log;
  {
    // The baseline alone takes 1 s: a 0.5 s budget leaves no trial.
    strategies::MemoryTrialStore store;
    const tuner::PipelineInput input{space, **strategy, space.baseline(), "test", true, std::nullopt, 0.5, true,
                                     testing::pipeline_trial_settings()};
    const auto result = tuner::run_pipeline(input, store, executor, log);
    CHECK(result.search_trials == 0);
    CHECK(result.exit_code == tuner::kExitPartial);
    // It says what the baseline took and which budget would leave room (it named both limits):
    // a trial at its most, 5 samples and a warm-up at the baseline's 1/3 s each.
    CHECK_THAT(result.message, Catch::StartsWith("no trial ran: the baseline and its noise measured ") &&
                                   Catch::Contains("s of the --time-budget of 0.5 s, and a trial (up to about 2 s)"));
    CHECK_THAT(result.message, Catch::Contains("leaves room for at least 10 trials"));
    CHECK(result.unscreened == std::vector<std::string>{"multcount", "io_support"});
  }
  {
    // One trial: the first setting screened first is tried, the other named untried.
    strategies::MemoryTrialStore store;
    const auto result = run(space, "coordinate-descent", store, executor, 1);
    REQUIRE(result.search_trials == 1);
    CHECK(result.exit_code == tuner::kExitOk);
    CHECK(result.unscreened.size() == 1);
  }
}

TEST_CASE("pipeline: a setting a group carries along at one value is never named untried", "[tuner]") {
  // The scheduler's group holds nr_requests (a switch resets it) at the baseline's value only.
  const auto base = testing::settings_of({{"scheduler", "mq-deadline"}, {"nr_requests", "64"}, {"read_ahead_kb", "128"}});
  const strategies::Group scheduler{{SettingId::scheduler, SettingId::nr_requests},
                                    {testing::settings_of({{"scheduler", "mq-deadline"}, {"nr_requests", "64"}}),
                                     testing::settings_of({{"scheduler", "none"}, {"nr_requests", "64"}})}};
  const strategies::Group readahead{{SettingId::read_ahead_kb},
                                    {testing::settings_of({{"read_ahead_kb", "128"}}),
                                     testing::settings_of({{"read_ahead_kb", "512"}})}};
  const strategies::SearchSpace space(base, {scheduler, readahead}, {}, {});
  TrialResult none_trial;
  none_trial.settings = testing::settings_of({{"scheduler", "none"}, {"nr_requests", "64"}, {"read_ahead_kb", "128"}});
  CHECK(tuner::unscreened_settings(space, {none_trial}) == std::vector<std::string>{"read_ahead_kb"});
}

TEST_CASE("pipeline: stops are values: a signal, a failed store write, a wedged device", "[tuner]") {
  const auto space = seed_space({SettingId::multcount, SettingId::io_support});
  SECTION("a signal after two trials: exit 1, nothing more applied, no confirmation") {
    FakeExecutor executor(io_support_helps);
    executor.stop_after_ = 2;
    strategies::MemoryTrialStore store;
    const auto result = run(space, "exhaustive", store, executor);
    REQUIRE(result.exit_code == tuner::kExitPartial);
    REQUIRE(executor.ran_.size() == 2);
    REQUIRE_FALSE(result.confirmation);
  }
  SECTION("the store fails after three writes: the second trial's result is lost, no third is applied") {
    FakeExecutor executor(io_support_helps);
    strategies::MemoryTrialStore store;
    // The baseline's three trials' intents, its record twice (measured, then with the noise
    // check's decision), intent 1, result 1, intent 2.
    store.fail_after(8);
    const auto result = run(space, "exhaustive", store, executor);
    REQUIRE(result.stop);
    REQUIRE(result.stop->reason == strategies::StopReason::store_failed);
    REQUIRE(result.exit_code == tuner::kExitDevice);
    REQUIRE(executor.ran_.size() == 2);
    REQUIRE(result.search_trials == 1);
  }
  SECTION("the second trial wedges the device: recorded, reported last, exit 5") {
    FakeExecutor executor(io_support_helps);
    executor.wedge_at_ = 2;
    strategies::MemoryTrialStore store;
    const auto result = run(space, "exhaustive", store, executor);
    REQUIRE(result.exit_code == tuner::kExitWedged);
    REQUIRE(executor.ran_.size() == 2);
    REQUIRE(result.search_trials == 1);
    REQUIRE(result.trials.size() == 2);
    REQUIRE(result.trials.back().status == TrialStatus::wedged);
    REQUIRE(result.trials.back().id == 2);
    REQUIRE(store.results().back().status == TrialStatus::wedged);
  }
}

namespace {

// An exhaustive pipeline over the SIMULATED seed drive in process (`profile`, `seed`, the
// settings `only`), its trials in `store`, its log in `log`; the device stays with the caller.
struct SimPipeline {
  std::unique_ptr<probe::Device> device;
  probe::Settings original;
  tuner::PipelineResult result;
};

SimPipeline sim_pipeline(const probe::SimProfile& profile, std::uint64_t seed, std::vector<SettingId> only,
                         strategies::MemoryTrialStore& store, std::ostringstream& log) {
  SimPipeline run{testing::make_sim(testing::seed_identify(), profile, seed), {}, {}};
  run.original = *run.device->snapshot();
  strategies::SpaceOptions options;
  options.only = std::move(only);
  const auto space = strategies::build_space(testing::seed_identify(), run.device->capabilities(), run.original, options);
  tuner::TrialRunner runner(*run.device, run.original, testing::pipeline_trial_settings());
  tuner::ChildExecutor executor(runner, {});
  auto strategy = strategies::make_strategy("exhaustive");
  const tuner::PipelineInput input{space, **strategy, run.original, "sim:", true, std::nullopt, std::nullopt, true,
                                   runner.settings()};
  run.result = tuner::run_pipeline(input, store, executor, log);
  return run;
}

}  // namespace

TEST_CASE("pipeline over the SIMULATED drive in process: trials are recorded intent first, then result", "[tuner]") {
  strategies::MemoryTrialStore store;
  std::ostringstream log;
  const auto run = sim_pipeline({}, 7, {SettingId::multcount, SettingId::io_support}, store, log);
  const auto& result = run.result;
  REQUIRE(result.exit_code == tuner::kExitOk);
  REQUIRE(result.search_trials > 0);
  REQUIRE(store.intents().size() == result.search_trials);
  REQUIRE(store.results().size() == result.search_trials);
  REQUIRE(log.str().find("[SIMULATED] trial 1") != std::string::npos);
  REQUIRE(*run.device->snapshot() == run.original);
}

namespace {

// The log of an exhaustive search of io_support (3 is 5 % faster) with `settings`, through its
// confirmation round (each trial 1 s of 3 samples: 1/3 s a sample).
std::string exhaustive_io_support_log(const tuner::TrialSettings& settings) {
  const auto space = seed_space({SettingId::io_support});
  FakeExecutor executor(io_support_helps);
  strategies::MemoryTrialStore store;
  auto strategy = strategies::make_strategy("exhaustive");
  REQUIRE(strategy);
  std::ostringstream log;
  const tuner::PipelineInput input{space, **strategy, space.baseline(), "test", true, std::nullopt, std::nullopt, true,
                                   settings};
  const auto result = tuner::run_pipeline(input, store, executor, log);
  INFO(log.str());
  REQUIRE(result.confirmation);
  return log.str();
}

}  // namespace

TEST_CASE("pipeline: the confirmation round's announced reading time follows the baseline's time per sample",
          "[tuner]") {
  // A slow device: a sample takes longer than --duration (here 1/3 s of reading against
  // 0.2 s: it reads whole chunks). 2 contenders x 3 rounds x a warm-up and a kept sample
  // at 1/3 s each are 4 s; announcing 2.4 s ("at most") understated it on a 0.4 MB/s disk.
  const auto log = exhaustive_io_support_log(testing::pipeline_trial_settings());
  INFO(log);
  REQUIRE(log.find("(a warm-up and a kept sample each; about 4 s of simulated reads)") != std::string::npos);
}

TEST_CASE("pipeline: a round whose samples end before --duration is announced at their time, not --duration's",
          "[tuner]") {
  // The EMULATED ssd's samples end at a steady rate after about 1.5 s of a 3 s --duration: its
  // round was announced as "about 54 s of reads" and took 19 s. Here a sample takes 1/3 s against
  // --duration 1 s: 2 contenders x 3 rounds x a warm-up and a kept sample at 1/3 s each are 4 s.
  auto settings = testing::pipeline_trial_settings();
  settings.workload.duration = probe::Seconds{1.0};
  const auto log = exhaustive_io_support_log(settings);
  INFO(log);
  REQUIRE(log.find("(a warm-up and a kept sample each; about 4 s of simulated reads)") != std::string::npos);
}

TEST_CASE("pipeline: a faster median that ties with a simpler winner is named with the rule that broke the tie",
          "[tuner]") {
  const auto space = seed_space({SettingId::multcount, SettingId::io_support});
  const auto baseline_multcount = get(space.baseline(), SettingId::multcount);
  // io_support=3 gains 20 %; a multcount change on top reads 0.5 % more: tied, and not simpler.
  FakeExecutor executor([&](const probe::Settings& c) {
    const double rate = get(c, SettingId::io_support) == 3 ? 12.0 : 10.0;
    return get(c, SettingId::multcount) != baseline_multcount && rate > 11.0 ? rate * 1.005 : rate;
  });
  executor.original_ = space.baseline();
  strategies::MemoryTrialStore store;
  const auto result = run(space, "exhaustive", store, executor);
  REQUIRE(result.exit_code == tuner::kExitOk);
  REQUIRE(get(result.best.settings, SettingId::io_support) == 3);
  REQUIRE(get(result.best.settings, SettingId::multcount) == baseline_multcount);
  REQUIRE(result.tie);
  const auto faster = std::find_if(result.trials.begin(), result.trials.end(),
                                   [&](const TrialResult& t) { return t.id == result.tie->faster_trial_id; });
  REQUIRE(faster != result.trials.end());
  REQUIRE(get(faster->settings, SettingId::io_support) == 3);
  REQUIRE(get(faster->settings, SettingId::multcount) != baseline_multcount);
  REQUIRE(result.tie->faster_median > result.best.median);
  REQUIRE(result.tie->rule.starts_with("fewer "));
  // The finalists left tied with the winner name the faster one too (the table says it once).
  REQUIRE(std::any_of(result.unseparated.begin(), result.unseparated.end(),
                      [&](const auto& tied) { return tied.trial_id == result.tie->faster_trial_id; }));
}

TEST_CASE("pipeline: a coupled group's setting no trial changed is not named as acting", "[tuner]") {
  // xfermode acted (a PIO mode clearly slower); DMA was never tried: only xfermode acted.
  const auto base = testing::settings_of({{"using_dma", "0"}, {"xfermode", "pio4"}});
  const strategies::Group dma{{SettingId::using_dma, SettingId::xfermode},
                              {base, testing::settings_of({{"using_dma", "0"}, {"xfermode", "pio0"}}),
                               testing::settings_of({{"using_dma", "1"}, {"xfermode", "udma2"}})}};
  const strategies::SearchSpace space(base, {dma}, {}, {});
  auto runner = [&](const probe::Settings& config) {
    const double rate = config == base ? 10.0 : 2.0;
    return testing::ok_trial(rate, 0.99 * rate, 1.01 * rate);
  };
  strategies::Evaluator evaluator(space, runner, runner(base));
  REQUIRE(evaluator.evaluate(space.groups()[0].choices[1]));
  CHECK(tuner::acting_settings(space, evaluator) == std::vector<std::string>{"xfermode"});
}

TEST_CASE("pipeline: a setting --only left out is never named untried, whatever its group carries", "[tuner]") {
  // --only scheduler: nr_requests rides along at the value each scheduler accepts (none: 64).
  const auto base = testing::settings_of({{"scheduler", "mq-deadline"}, {"nr_requests", "256"}});
  const strategies::Group scheduler{{SettingId::scheduler, SettingId::nr_requests},
                                    {base, testing::settings_of({{"scheduler", "none"}, {"nr_requests", "64"}})}};
  const strategies::SearchSpace space(base, {scheduler}, {},
                                      {{SettingId::nr_requests, "not selected (--only, --safe-only)"}});
  CHECK(tuner::unscreened_settings(space, {}) == std::vector<std::string>{"scheduler"});
}
