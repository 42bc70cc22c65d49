// SPDX-License-Identifier: GPL-2.0-or-later
// tuner/run/decision: the winner when the confirmation round is skipped.
#include "tuner/run/decision.hpp"

#include "tests/support/ok_trial.hpp"
#include "tests/support/seed_like_identify.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;

namespace {

strategies::SearchSpace io_support_space() {
  strategies::SpaceOptions options;
  options.only = std::vector{SettingId::io_support};
  return strategies::build_space(testing::seed_like_identify(), testing::legacy_capabilities(),
                                 testing::seed_baseline(), options);
}

// A round the journal says was skipped (the process died in it twice).
strategies::Rounded skipped_round(const std::vector<probe::Settings>&, int) {
  return strategies::Round{{}, "the process died in the confirmation round twice"};
}

}  // namespace

TEST_CASE("a skipped confirmation round leaves the search's answer and never a near tie it was to decide", "[tuner]") {
  const auto space = io_support_space();
  auto near_tie = space.baseline();
  near_tie[SettingId::io_support] = probe::SettingValue(std::int64_t{1});
  // io_support=1 reads 1.5 % above the baseline, intervals overlapping: not significantly
  // faster (the 2 % smallest gain), but a finalist for the round's longer samples to decide.
  const double gain = GENERATE(1.015, 1.10);
  auto runner = [&](const probe::Settings& config) {
    const double m = config == near_tie ? 10.0 * gain : 10.0;
    return testing::ok_trial(m, 0.995 * m, 1.005 * m);
  };
  strategies::Evaluator evaluator(space, runner, testing::ok_trial(10.0, 9.95, 10.05));
  REQUIRE(evaluator.evaluate(near_tie));
  REQUIRE_FALSE(strategies::finalists(evaluator).empty());
  const auto decided = tuner::decide(evaluator, skipped_round);
  REQUIRE(std::holds_alternative<tuner::Decision>(decided));
  const auto& decision = std::get<tuner::Decision>(decided);
  CHECK(decision.round_skipped == "the process died in the confirmation round twice");
  CAPTURE(gain);
  // 10 % faster and significant: the search's winner, unconfirmed. 1.5 %: the baseline.
  CHECK(decision.winner.settings == (gain > 1.05 ? near_tie : space.baseline()));
}

TEST_CASE("a confirmation round's second call leaves out a baseline far behind every finalist", "[tuner]") {
  const auto space = io_support_space();
  auto tied = space.baseline();
  tied[SettingId::io_support] = probe::SettingValue(std::int64_t{1});
  auto also = space.baseline();
  also[SettingId::io_support] = probe::SettingValue(std::int64_t{3});
  const double ahead = GENERATE(1.20, 1.03);  // both finalists 20 % (far) or 3 % ahead of the baseline
  CAPTURE(ahead);
  auto rate = [&](const probe::Settings& c) { return c == space.baseline() ? 10.0 : 10.0 * ahead; };
  auto runner = [&](const probe::Settings& config) {
    const double m = rate(config);
    return testing::ok_trial(m, 0.995 * m, 1.005 * m);
  };
  strategies::Evaluator evaluator(space, runner, testing::ok_trial(10.0, 9.95, 10.05));
  REQUIRE(evaluator.evaluate(tied));
  REQUIRE(evaluator.evaluate(also));
  std::vector<std::vector<probe::Settings>> calls;
  auto round = [&](const std::vector<probe::Settings>& contenders, int) -> strategies::Rounded {
    calls.push_back(contenders);
    std::vector<strategies::TrialResult> results;
    for (const auto& c : contenders) {  // three rounds, the baseline's +-0.5 %, the finalists' +-1.5 %:
      // tied and not alike (their intervals wider than the minimum gain), so a second call follows
      const double s = c == space.baseline() ? 0.005 : 0.015;
      auto t = testing::ok_trial(rate(c), (1 - s) * rate(c), (1 + s) * rate(c));
      t.samples = {(1 - s) * rate(c), rate(c), (1 + s) * rate(c)};
      strategies::summarize_samples(t);
      results.push_back(t);
    }
    return strategies::Round{results, ""};
  };
  const auto decided = tuner::decide(evaluator, round, 3, 0, true);
  REQUIRE(std::holds_alternative<tuner::Decision>(decided));
  REQUIRE(calls.size() == 2);
  REQUIRE(calls[0].front() == space.baseline());
  CHECK((calls[1].front() == space.baseline()) == (ahead < 1.1));
  CHECK(std::get<tuner::Decision>(decided).winner.settings != space.baseline());
}

// max_sectors_kb written behind the tune's back in the round leaves its baseline unstable; a
// round that then says "one contender is far ahead" confirms the winner against nothing.
TEST_CASE("a confirmation round whose baseline did not measure confirms nothing", "[tuner]") {
  const auto space = io_support_space();
  auto faster = space.baseline();
  faster[SettingId::io_support] = probe::SettingValue(std::int64_t{1});
  auto runner = [&](const probe::Settings& config) {
    const double m = config == faster ? 15.0 : 10.0;
    return testing::ok_trial(m, 0.995 * m, 1.005 * m);
  };
  strategies::Evaluator evaluator(space, runner, testing::ok_trial(10.0, 9.95, 10.05));
  REQUIRE(evaluator.evaluate(faster));
  int calls = 0;
  auto round = [&](const std::vector<probe::Settings>& contenders, int) -> strategies::Rounded {
    ++calls;
    std::vector<strategies::TrialResult> results;
    for (const auto& c : contenders) results.push_back(runner(c));
    for (auto& r : results) r.measured_s = 9.0;
    results.front().status = strategies::TrialStatus::unstable;
    results.front().detail = "max_sectors_kb changed behind its back";
    return strategies::Round{results, ""};
  };
  const auto decided = tuner::decide(evaluator, round, 3, 0, true);
  REQUIRE(std::holds_alternative<tuner::Decision>(decided));
  const auto& decision = std::get<tuner::Decision>(decided);
  CHECK_FALSE(decision.confirmation);
  CHECK(decision.round_skipped == "the baseline did not measure in the confirmation round (unstable: max_sectors_kb "
                                  "changed behind its back): nothing can be confirmed against it");
  CHECK(decision.winner.settings == faster);  // the search's answer, unconfirmed
  CHECK(calls == 1);  // no second call, no extra pass: nothing they measured could count
  CHECK(decision.dropped_round_s == Approx(9.0 * 2));  // still counted in the run's measured time
}
