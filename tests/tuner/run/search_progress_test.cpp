// SPDX-License-Identifier: GPL-2.0-or-later
// The time left from a forecast that predicts its trials' seconds: those seconds, not the count
// at the mean time per trial so far; --max-trials cuts them with the count.
#include "tuner/run/search_progress.hpp"

#include "strategies/strategy.hpp"
#include "tests/support/pipeline_fixture.hpp"

#include <catch2/catch.hpp>

using namespace disktune;

namespace {

// 10 trials done in 30 s (3 s each); a forecast of 20 trials (15 to 30) whose 10 left take 12 s
// as predicted (8 s for the 5 fewest, 25 s for the 20 most): a search returning to short trials.
tuner::SearchProgress predicted_progress() {
  tuner::SearchProgress p;
  p.trials = 10;
  p.measured_s = 30.0;
  p.forecast = {20, true, 15, 30, strategies::ForecastSeconds{12.0, 8.0, 25.0}};
  return p;
}

// A baseline of three samples 9.9, 10 and 10.1 (MB/s).
strategies::TrialResult baseline_at_10() {
  strategies::TrialResult baseline;
  baseline.status = strategies::TrialStatus::ok;
  baseline.samples = {9.9, 10.0, 10.1};
  strategies::summarize_samples(baseline);
  return baseline;
}

// A strategy whose forecast is fixed: search_progress's --max-trials cut seen alone.
class FixedForecast final : public strategies::Strategy {
 public:
  explicit FixedForecast(strategies::TrialForecast forecast) : forecast_(std::move(forecast)) {}
  std::string_view name() const override { return "fixed"; }
  std::string_view description() const override { return "a fixed forecast"; }
  void run(const strategies::SearchSpace&, strategies::Evaluator&) override {}
  strategies::TrialForecast forecast(const strategies::SearchSpace&, const strategies::Evaluator&) const override {
    return forecast_;
  }

 private:
  strategies::TrialForecast forecast_;
};

}  // namespace

TEST_CASE("time left: --max-trials keeps of each count's predicted seconds the share of its trials left that it allows",
          "[tuner]") {
  // 2 trials done; a forecast of 10 (8 to 12) whose trials left take 80 s (60 s, 100 s) as
  // predicted. --max-trials 6 leaves 4 of each count's trials left: 4/8 of 80 s, 4/6 of 60 s,
  // 4/10 of 100 s, all 40 s; without a cap the forecast's own seconds.
  const auto space = testing::seed_space({probe::SettingId::multcount});
  testing::FakeExecutor executor(testing::io_support_helps);
  strategies::MemoryTrialStore store;
  strategies::Evaluator evaluator(space, executor, store, baseline_at_10());
  for (std::size_t c = 0; evaluator.trials().size() < 2 && c < space.groups().front().choices.size(); ++c) {
    const auto config = space.with_choice(space.baseline(), 0, c);
    if (config != space.baseline()) REQUIRE(evaluator.evaluate(config));
  }
  REQUIRE(evaluator.trials().size() == 2);
  FixedForecast strategy({10, true, 8, 12, strategies::ForecastSeconds{80.0, 60.0, 100.0}});
  const auto capped = tuner::search_progress(strategy, space, evaluator, {}, 6);
  CHECK(capped.forecast.total == 6);
  CHECK_FALSE(capped.forecast.estimated);  // even the fewest reaches the cap
  CHECK(capped.search_left_s == Approx(40.0));
  CHECK(capped.search_least_s == Approx(40.0));
  CHECK(capped.search_most_s == Approx(40.0));
  const auto free = tuner::search_progress(strategy, space, evaluator, {}, std::nullopt);
  CHECK(free.search_left_s == Approx(80.0));
  CHECK(free.search_least_s == Approx(60.0));
  CHECK(free.search_most_s == Approx(100.0));
  // A cap the trials done already reach leaves nothing of any count.
  const auto spent = tuner::search_progress(strategy, space, evaluator, {}, 2);
  CHECK(spent.search_left_s == Approx(0.0));
  CHECK(spent.search_most_s == Approx(0.0));
}

TEST_CASE("time left: a forecast's predicted seconds take the place of its count at the mean time per trial",
          "[tuner]") {
  const auto p = tuner::with_time_left(predicted_progress(), {});
  REQUIRE(p.search_left_s == Approx(12.0));   // not 10 trials x 3 s
  REQUIRE(p.search_least_s == Approx(8.0));   // not 5 x 3 s
  REQUIRE(p.search_most_s == Approx(25.0));   // not 20 x 3 s
  REQUIRE(p.remaining_s == Approx(12.0));     // no finalist: no round
  // Without predicted seconds, the count at the mean time per trial so far.
  auto counted = predicted_progress();
  counted.forecast.seconds.reset();
  const auto q = tuner::with_time_left(counted, {});
  REQUIRE(q.search_left_s == Approx(30.0));
  REQUIRE(q.search_least_s == Approx(15.0));
  REQUIRE(q.search_most_s == Approx(60.0));
}

TEST_CASE("time left: a budget bounds predicted seconds as it bounds counted ones", "[tuner]") {
  tuner::TimeLeftBasis basis;
  basis.budget_s = 40.0;  // 10 s left after the 30 measured: the search starts trials while that lasts
  const auto p = tuner::with_time_left(predicted_progress(), basis);
  REQUIRE(p.search_left_s == Approx(12.0));  // the room (10 s) plus the last trial's end (3 s) holds it
  REQUIRE(p.search_most_s == Approx(13.0));  // not the predicted 25
}

TEST_CASE("time left: a finalist already far ahead is expected to end the round after its first call", "[tuner]") {
  // The newcomer's --max-trials 10 run: at its last trial "about 2 m 06 s left" where 54 s
  // were, the round counted at all 6 rounds while its finalist, 2x the baseline in the search,
  // ended it after 3 (strategies::confirm's far_ahead). 10 trials done, one finalist, a round of
  // 6 rounds (3 at its fewest) at 1 s a unit: 2 contenders x 3 rounds, not x 6.
  const auto space = testing::seed_space({probe::SettingId::io_support});
  const double faster = GENERATE(15.0, 10.3);
  CAPTURE(faster);
  testing::FakeExecutor executor(
      [&](const probe::Settings& c) { return testing::get(c, probe::SettingId::io_support) == 3 ? faster : 10.0; });
  strategies::MemoryTrialStore store;
  strategies::Evaluator evaluator(space, executor, store, baseline_at_10());
  for (std::size_t c = 0; c < space.groups().front().choices.size(); ++c)
    if (const auto config = space.with_choice(space.baseline(), 0, c); config != space.baseline())
      REQUIRE(evaluator.evaluate(config));
  tuner::TimeLeftBasis basis;
  basis.rounds = 6;
  basis.min_rounds = 3;
  basis.unit_s = 1.0;
  FixedForecast done({evaluator.trials().size(), false, std::nullopt, std::nullopt, std::nullopt});
  const auto p = tuner::search_progress(done, space, evaluator, basis,
                                        std::nullopt);
  REQUIRE(p.finalists == 1);
  CHECK(p.far_ahead == (faster > 11.0));
  CHECK(p.remaining_s == Approx(faster > 11.0 ? 6.0 : 12.0));  // 3 % ahead: not far, all 6 rounds
}
