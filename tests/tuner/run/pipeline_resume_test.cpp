// SPDX-License-Identifier: GPL-2.0-or-later
// The pipeline resumed from an in-memory store: the baseline, its noise and its sampling come back as recorded.
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
using strategies::TrialStatus;
using testing::FakeExecutor;
using testing::seed_space;


TEST_CASE("pipeline: a resumed baseline is taken from the store, not measured", "[tuner]") {
  const auto space = seed_space({SettingId::io_support});
  FakeExecutor executor(testing::io_support_helps);
  strategies::Baseline saved;
  saved.trial.status = TrialStatus::ok;
  saved.trial.samples = {9.9, 10.0, 10.1};
  strategies::summarize_samples(saved.trial);
  strategies::MemoryTrialStore store;
  REQUIRE_FALSE(store.record_baseline(saved));
  const auto result = run(space, "exhaustive", store, executor);
  REQUIRE(executor.adopted_);
  REQUIRE(result.resumed_baseline);
}


TEST_CASE("pipeline: a re-measured baseline noise is stored, so a resumed run judges by it", "[tuner]") {
  // Three tight trials far apart (10.67 %: above the 2 % gain), measured again with
  // --max-repeats samples per trial (5.33 %), then every configuration at 100 MB/s.
  const std::vector<double> medians{100.0, 92.0, 108.0, 100.0, 96.0, 104.0};
  std::size_t calls = 0;
  FakeExecutor executor([&](const probe::Settings&) { return calls < medians.size() ? medians[calls++] : 100.0; });
  const auto space = seed_space({SettingId::io_support});
  strategies::MemoryTrialStore store;
  auto strategy = strategies::make_strategy("coordinate-descent");
  REQUIRE(strategy);
  std::ostringstream log;
  const tuner::PipelineInput input{space, **strategy, space.baseline(), "test", true, std::nullopt, std::nullopt, true,
                                   testing::pipeline_trial_settings()};
  const auto result = tuner::run_pipeline(input, store, executor, log);
  REQUIRE_THAT(log.str(), Catch::Contains("noise again with"));
  REQUIRE(result.baseline);
  CHECK(result.baseline->noise_floor_pct == Approx(16.0 / 3.0));
  const auto saved = store.saved_baseline();
  REQUIRE(saved);
  CHECK(saved->aa_medians == result.baseline->aa_medians);
  CHECK(saved->noise_floor_pct == result.baseline->noise_floor_pct);
}

TEST_CASE("pipeline: a resumed run samples as the run it resumes, and its budget counts the noise's time", "[tuner]") {
  // Three tight trials far apart (10.67 %: above the 2 % gain), measured again with
  // --max-repeats samples per trial (1.33 %: below it): every search trial takes them all.
  // The resume finds a noise below the gain on record; it must still take them all.
  const std::vector<double> medians{100.0, 92.0, 108.0, 100.0, 99.0, 101.0};
  std::size_t calls = 0;
  FakeExecutor first([&](const probe::Settings&) { return calls < medians.size() ? medians[calls++] : 100.0; });
  first.stop_after_ = 1;  // Ctrl-C after the first search trial
  const auto space = seed_space({SettingId::multcount, SettingId::io_support});
  strategies::MemoryTrialStore store;
  const auto interrupted = run(space, "coordinate-descent", store, first);
  REQUIRE(interrupted.exit_code == tuner::kExitPartial);
  REQUIRE(interrupted.noise.all_samples);
  REQUIRE(first.all_samples_ == std::vector<bool>{true});
  CHECK(interrupted.before_search_s == Approx(6.0));  // 1 + 2 noise repeats + 3 re-measured, 1 s each

  auto resumed_store = store.reopen("boot");
  FakeExecutor second([](const probe::Settings&) { return 100.0; });
  std::ostringstream resumed_log;
  const auto resumed = run(space, "coordinate-descent", resumed_store, second, std::nullopt, &resumed_log);
  REQUIRE(resumed.resumed_baseline);
  CHECK(resumed.noise.all_samples);
  REQUIRE_FALSE(second.all_samples_.empty());
  CHECK(std::find(second.all_samples_.begin(), second.all_samples_.end(), false) == second.all_samples_.end());
  CHECK_THAT(resumed_log.str(), Catch::Contains("kept from the interrupted run: 5 samples per trial, judged by its "
                                                "noise of 1.33 %"));
  CHECK(resumed.before_search_s == Approx(6.0));  // what --time-budget has spent before the search
}

namespace {

// A store with a run clock, as a journal keeps one: 125 s of the run so far.
struct ClockedStore final : strategies::MemoryTrialStore {
  explicit ClockedStore(strategies::MemoryTrialStore store) : MemoryTrialStore(std::move(store)) {}
  [[nodiscard]] std::optional<double> run_seconds() const override { return 125.0; }
};

// A coordinate-descent run stopped (Ctrl-C) after its second search trial, then resumed from
// its store (as a ClockedStore when `clocked`) with progress lines: the resume's log. Each
// trial and baseline repeat measures 1 s: the resume takes over 3 s of baseline and 2 s of trials.
std::string resumed_log(bool clocked) {
  const auto space = seed_space({SettingId::multcount, SettingId::io_support});
  auto strategy = strategies::make_strategy("coordinate-descent");
  tuner::PipelineInput input{space, **strategy, space.baseline(), "test", false, std::nullopt, std::nullopt, true,
                             testing::pipeline_trial_settings()};
  input.progress_lines = true;
  FakeExecutor first(testing::io_support_helps);
  first.stop_after_ = 2;
  strategies::MemoryTrialStore store;
  std::ostringstream stopped;
  REQUIRE(tuner::run_pipeline(input, store, first, stopped).exit_code == tuner::kExitPartial);
  // Trial 2 ended after the stop request: "about ... left" under "stop requested" misleads.
  INFO(stopped.str());
  REQUIRE_THAT(stopped.str(), Catch::Contains("trial 1 of ") && !Catch::Contains("trial 2 of "));

  strategies::MemoryTrialStore plain = store.reopen("boot");
  ClockedStore with_clock(store.reopen("boot"));
  strategies::TrialStore& resumed_store = clocked ? static_cast<strategies::TrialStore&>(with_clock) : plain;
  FakeExecutor again(testing::io_support_helps);
  std::ostringstream log;
  REQUIRE(tuner::run_pipeline(input, resumed_store, again, log).exit_code == tuner::kExitOk);
  REQUIRE(again.ran_.size() >= 1);  // something left to measure
  return log.str();
}

}  // namespace

TEST_CASE("pipeline: a resume lists the journal's trials as such and counts their time as elapsed", "[tuner]") {
  // The newcomer's resume reprinted the interrupted run's status lines with their stale times
  // left, and its elapsed time started again from 0 s.
  const std::string text = resumed_log(false);
  INFO(text);
  const auto kept_at = text.find("the interrupted run's trials, taken from the journal (not measured again):\n");
  const auto new_at = text.find("measured in this resume:\n");
  REQUIRE(kept_at != std::string::npos);
  REQUIRE(new_at > kept_at);
  REQUIRE(new_at != std::string::npos);
  const std::string kept = text.substr(kept_at, new_at - kept_at);
  CHECK(std::count(kept.begin(), kept.end(), '\n') == 3);  // the heading and trials 1 and 2, no status line
  CHECK(kept.find("trial 1: ") != std::string::npos);
  CHECK(kept.find("trial 2: ") != std::string::npos);
  CHECK(kept.find(" left") == std::string::npos);
  // Trial 3's status line: 5 s measured before this resume, and next to no wall time since.
  CHECK_THAT(text.substr(new_at), Catch::Contains("trial 3 of ") && Catch::Contains(", 5 s, about "));
}

TEST_CASE("pipeline: a resume's elapsed time is the store's run clock, the interrupted run's wall time included",
          "[tuner]") {
  // An EMULATED ssd's tune read 21 s before a kill -9 and 16 s after its resume: the measured
  // seconds taken over leave out the interrupted run's child starts, sets, read-backs and
  // flushes. A journal's records carry the run's wall time; the resume counts on from it.
  const std::string text = resumed_log(true);
  INFO(text);
  CHECK_THAT(text, Catch::Contains("trial 3 of ") && Catch::Contains(", 2 m 05 s, about "));
  CHECK_THAT(text, !Catch::Contains(", 5 s, about "));
}
