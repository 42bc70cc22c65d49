// SPDX-License-Identifier: GPL-2.0-or-later
// The confirmation round in the pipeline: 6 rounds measured as two calls of 3 (tuner/run/confirm_round).
#include "tuner/run/confirm_round.hpp"
#include "tuner/run/pipeline.hpp"

#include "strategies/registry.hpp"
#include "tests/support/pipeline_fixture.hpp"
#include "tests/support/round_keeping_store.hpp"
#include "tests/support/trial_settings.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace disktune;
using probe::SettingId;
using testing::FakeExecutor;
using testing::get;
using testing::seed_space;

namespace {

// An exhaustive pipeline over `space` whose confirmation round has 6 rounds (two calls of 3).
tuner::PipelineResult exhaustive_in_six_rounds(const strategies::SearchSpace& space, FakeExecutor& executor,
                                               std::ostream& log, strategies::TrialStore& store) {
  auto settings = testing::pipeline_trial_settings();
  settings.confirm_rounds = 6;
  auto strategy = strategies::make_strategy("exhaustive");
  const tuner::PipelineInput input{space, **strategy, space.baseline(), "test", true, std::nullopt, std::nullopt, true, settings};
  return tuner::run_pipeline(input, store, executor, log);
}

}  // namespace

TEST_CASE("pipeline: a confirmation round ends after its first rounds when one contender is far ahead",
          "[tuner]") {
  // 6 rounds measured in two calls of 3: io_support=3 reads 20 % faster, far ahead of the
  // baseline (a bad start's 8x winner need not take 6 rounds of slow reads);
  // 3 % faster with +-5 % samples is not, and the round takes its other rounds.
  const auto space = seed_space({SettingId::io_support});
  const double gain = GENERATE(1.20, 1.03);
  CAPTURE(gain);
  FakeExecutor executor([gain](const probe::Settings& c) { return get(c, SettingId::io_support) == 3 ? 10.0 * gain : 10.0; });
  executor.confirm_spread_ = gain > 1.1 ? 0.01 : 0.05;
  std::ostringstream log;
  strategies::MemoryTrialStore store;
  const auto result = exhaustive_in_six_rounds(space, executor, log, store);
  REQUIRE(result.confirmation);
  if (gain > 1.1) {
    REQUIRE(testing::measured_calls(store) == 1);
    REQUIRE(testing::passes_of(store, 0) == 3);  // the first call's part: 3 rounds of 6
    REQUIRE(result.confirmation->far_ahead);
    REQUIRE(result.confirm_rounds == 3);
    REQUIRE(get(result.best.settings, SettingId::io_support) == 3);
    REQUIRE_THAT(log.str(), Catch::Contains("one contender is far ahead of the others after 3 rounds"));
  } else {
    REQUIRE(testing::measured_calls(store) >= 2);
    REQUIRE_FALSE(result.confirmation->far_ahead);
    REQUIRE(result.confirm_rounds == 6);
    REQUIRE(result.confirmation->results.front().samples.size() >= 6);
    REQUIRE_THAT(log.str(), Catch::Contains("rounds 4-6 follow"));
  }
}

TEST_CASE("pipeline: a confirmation round a signal cut short is measured again on resume", "[tuner]") {
  // The adversary's SIGTERM in the round: its units failed as "stopped", the round was kept in
  // the journal, and the resume answered "keep the baseline" over an 8x winner.
  const auto space = seed_space({SettingId::io_support});
  auto rate = [](const probe::Settings& c) { return get(c, SettingId::io_support) == 3 ? 12.0 : 10.0; };
  FakeExecutor executor(rate);
  executor.signal_in_confirm_ = true;
  testing::RoundKeepingStore store;  // keeps a round as the journal does
  auto strategy = strategies::make_strategy("exhaustive");
  std::ostringstream log;
  const tuner::PipelineInput input{space, **strategy, space.baseline(), "test", true, std::nullopt, std::nullopt,
                                   true, testing::pipeline_trial_settings()};
  const auto stopped = tuner::run_pipeline(input, store, executor, log);
  REQUIRE(stopped.exit_code != tuner::kExitOk);
  REQUIRE_FALSE(stopped.confirmation);
  FakeExecutor again(rate);
  const auto resumed = tuner::run_pipeline(input, store, again, log);
  REQUIRE(resumed.exit_code == tuner::kExitOk);
  REQUIRE(again.confirm_units_ >= 1);  // measured again, not taken from the store
  REQUIRE(get(resumed.best.settings, SettingId::io_support) == 3);
}

TEST_CASE("pipeline: a confirmation round ends after its first rounds when its finalists read alike far ahead of the baseline",
          "[tuner]") {
  // The throttled bed's seq-read-direct bad start: three finalists at the 200 MB/s cap, 1.56x
  // the baseline, +-0.04 % noise; their second call (36 s of a 303 s tune) could not change the
  // answer. 32-bit I/O with or without sync reads alike here, 20 % over 16-bit.
  const auto space = seed_space({SettingId::io_support});
  const double spread = GENERATE(0.0004, 0.05);
  CAPTURE(spread);
  FakeExecutor executor([](const probe::Settings& c) { return get(c, SettingId::io_support) != 0 ? 12.0 : 10.0; });
  executor.confirm_spread_ = spread;
  std::ostringstream log;
  strategies::MemoryTrialStore store;
  const auto result = exhaustive_in_six_rounds(space, executor, log, store);
  REQUIRE(result.confirmation);
  REQUIRE(result.confirmation->results.size() == 3);  // the baseline, io_support 1 and 3
  REQUIRE(get(result.best.settings, SettingId::io_support) != 0);
  if (spread < 0.01) {
    REQUIRE(testing::measured_calls(store) == 1);
    REQUIRE(result.confirmation->alike);
    REQUIRE(result.confirm_rounds == 3);
    REQUIRE_THAT(log.str(), Catch::Contains("the finalists read alike (within the minimum gain), all far ahead of the "
                                            "baseline after 3 rounds; the other 3 would not change the answer"));
  } else {  // +-5 %: their intervals are wider than the minimum gain, so they are measured on
    REQUIRE(testing::measured_calls(store) >= 2);
    REQUIRE_FALSE(result.confirmation->alike);
    REQUIRE(result.confirm_rounds == 6);
  }
}

namespace {

// Occurrences of `what` in `text`.
std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("pipeline: an extra pass of the confirmation round is announced as one, at the round's own pace", "[tuner]") {
  // The newcomer's EMULATED ssd run: the extra pass re-announced "x 6 rounds" as a new round,
  // numbered its units 1/6-6/6 again, said "about 144 s" (the baseline's pace) for 54 s, and
  // "confirmation round done" came twice. io_support 3 is 3 % faster, samples +-5 %: 6 rounds
  // leave it unseparated, and each unit takes 2 s where the baseline's samples took 1/3 s.
  const auto space = seed_space({SettingId::io_support});
  FakeExecutor executor([](const probe::Settings& c) { return get(c, SettingId::io_support) == 3 ? 10.3 : 10.0; });
  executor.confirm_spread_ = 0.05;
  executor.unit_s_ = 2.0;
  std::ostringstream log;
  strategies::MemoryTrialStore store;
  const auto result = exhaustive_in_six_rounds(space, executor, log, store);
  REQUIRE(testing::measured_calls(store) >= 3);  // rounds 1-3, 4-6, then an extra pass
  const std::string text = log.str();
  INFO(text);
  CHECK(count_of(text, "confirmation round, extra pass 1 (of at most 3): the fastest contender is ahead") == 1);
  CHECK(count_of(text, "x 6 rounds") == 0);  // the round's first call says "x 3 rounds (of 6)"
  CHECK(count_of(text, "x 6 more rounds") == static_cast<std::size_t>(testing::measured_calls(store) - 2));
  CHECK(count_of(text, "confirmation round: rounds 4-6 done\n") == 1);
  CHECK(count_of(text, "confirmation round: extra pass 1 done\n") == 1);
  // Each extra unit is numbered within its pass, apart from the round's rounds 1-6.
  const std::size_t extra_units = count_of(text, "confirm extra pass 1, round ");
  CHECK(extra_units >= 6);
  CHECK(count_of(text, "confirm round 6/6, ") == extra_units / 6);
  // Announced at the round's pace (2 s a unit): contenders x 6 rounds x 2 s.
  const auto extra_at = text.find("confirmation round, extra pass: ");
  REQUIRE(extra_at != std::string::npos);
  const std::size_t contenders = extra_units / 6;
  CHECK(text.find("about " + std::to_string(contenders * 6 * 2) + " s of simulated reads", extra_at) ==
        text.find("about ", extra_at));
}

TEST_CASE("pipeline: a resume names each call of the round it takes from the journal", "[tuner]") {
  // A resume after the round said "confirmation round: taken from the journal" twice.
  const auto space = seed_space({SettingId::io_support});
  const auto rate = [](const probe::Settings& c) { return get(c, SettingId::io_support) == 3 ? 10.3 : 10.0; };
  testing::RoundKeepingStore store;  // keeps each call of the round as the journal does
  FakeExecutor first(rate), again(rate);
  first.confirm_spread_ = again.confirm_spread_ = 0.05;
  std::ostringstream measured, resumed;
  exhaustive_in_six_rounds(space, first, measured, store);
  exhaustive_in_six_rounds(space, again, resumed, store);
  INFO(measured.str() + "---\n" + resumed.str());
  REQUIRE(count_of(measured.str(), "confirmation round: extra pass 1 done\n") == 1);
  CHECK(again.confirm_units_ == 0);
  CHECK(count_of(resumed.str(), "confirmation round: rounds 1-3 taken from the journal\n") == 1);
  CHECK(count_of(resumed.str(), "confirmation round: rounds 4-6 taken from the journal\n") == 1);
  CHECK(count_of(resumed.str(), "confirmation round: extra pass 1 taken from the journal\n") == 1);
}

namespace {

// io_support 3 reads 4.5 % faster than the rest (over half the floor: a finalist); the baseline's trials read 1, 1 and 1.12 times
// their rate (a noise floor of 8 %); the round's units read the rate -+ `spread`.
tuner::PipelineResult floor_above_round(double spread, std::ostringstream& log) {
  const auto space = seed_space({SettingId::io_support});
  FakeExecutor executor([](const probe::Settings& c) { return get(c, SettingId::io_support) == 3 ? 10.45 : 10.0; });
  executor.baseline_factors_ = {1.0, 1.0, 1.12};
  executor.confirm_spread_ = spread;
  auto strategy = strategies::make_strategy("exhaustive");
  const tuner::PipelineInput input{space, **strategy, space.baseline(), "test", true, std::nullopt, std::nullopt,
                                   true, testing::pipeline_trial_settings()};
  strategies::MemoryTrialStore store;
  return tuner::run_pipeline(input, store, executor, log);
}

}  // namespace

TEST_CASE("pipeline: a gain the round's quiet trials separate wins over a noise floor that one baseline trial made",
          "[tuner]") {
  // The newcomer's EMULATED ssd: its round separated read_ahead_kb 8192 by 3.6 %, its units
  // within 0.8 %, and the run ended "too noisy" on a 6.35 % floor.
  std::ostringstream log;
  const auto result = floor_above_round(0.01, log);
  INFO(log.str());
  REQUIRE_FALSE(result.noise.resolvable);  // the 8 % floor is over the 2 % minimum gain
  REQUIRE(result.confirmation);
  CHECK(result.exit_code == tuner::kExitOk);
  CHECK(get(result.best.settings, SettingId::io_support) == 3);
  CHECK(result.confirmation->gain_threshold == Approx(0.02));
  CHECK_THAT(log.str(), Catch::Contains("the confirmation round's own trials read a noise of "));
}

TEST_CASE("pipeline: a run the round could not separate says which threshold its round judged by", "[tuner]") {
  // Its last line named only the noise floor (18.82 %) where the round had judged by 12.33 %.
  std::ostringstream log;
  const auto result = floor_above_round(0.03, log);  // the round's noise: 2.91 % over 4 passes
  INFO(log.str());
  REQUIRE(result.confirmation);
  CHECK(result.exit_code == tuner::kExitTooNoisy);
  CHECK_THAT(result.message, Catch::Contains("no configuration beat the noise (") &&
                                 Catch::Contains("; the confirmation round judged by its own trials' 2.91 %"));
}

TEST_CASE("confirmation unit: a warm-up and a kept sample at the baseline's own times", "[tuner]") {
  // The EMULATED ssd's baseline: 10 samples of about 1.5 s (a steady rate ends them early of a
  // 3 s --duration) and a 0.24 s warm-up; its round was announced at 3.2 s a unit and took 1.8.
  strategies::TrialResult baseline;
  baseline.samples.assign(10, 400.0);
  baseline.sample_seconds.assign(10, 1.5);
  baseline.warmup = 380.0;  // its warm-up sample's figure
  baseline.measured_s = 15.24;
  REQUIRE(tuner::unit_seconds(baseline) == Approx(1.74));
  // Samples' times not recorded (a journal from before the field): twice the time per sample.
  baseline.sample_seconds.clear();
  REQUIRE(tuner::unit_seconds(baseline) == Approx(2.0 * 15.24 / 11.0));
}
