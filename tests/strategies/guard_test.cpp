// SPDX-License-Identifier: GPL-2.0-or-later
// The guard objective's rule (winner exclusion), the Pareto set, and the guard's codec round trip.
#include "results/codec/trial_codec.hpp"
#include "strategies/confirmation.hpp"
#include "strategies/guard.hpp"
#include "strategies/winner_rule.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using strategies::TrialResult;

namespace {

// An ok trial with A score `a` (a tight interval) and guard score `b`.
TrialResult trial(int id, double a, double b, int read_ahead) {
  TrialResult t;
  t.id = id;
  t.status = strategies::TrialStatus::ok;
  t.settings = {{probe::SettingId::read_ahead_kb, probe::SettingValue(read_ahead)}};
  t.samples = {a, a, a};
  t.median = a;
  t.ci_low = a * 0.99;
  t.ci_high = a * 1.01;
  t.guard = strategies::guard_figures_of({b, b, b});
  return t;
}

}  // namespace

TEST_CASE("the guard excludes a configuration worse than the baseline on B beyond the tolerance", "[strategies]") {
  const TrialResult base = trial(0, 100, 1000, 128);
  const std::vector<TrialResult> candidates{trial(1, 150, 900, 256), trial(2, 120, 960, 512)};
  CHECK(strategies::fails_guard(candidates[0], base, 0.05));   // 10 % worse
  CHECK_FALSE(strategies::fails_guard(candidates[1], base, 0.05));  // 4 % worse
  CHECK(strategies::fails_guard(candidates[1], base, 0.0));
  const auto* pick = strategies::pick_winner(base, candidates, base.settings, 0.02, 0.05);
  REQUIRE(pick != nullptr);
  CHECK(pick->id == 2);  // the faster one fails the guard
  CHECK(strategies::pick_winner(base, candidates, base.settings, 0.02, 0.0) == nullptr);  // keep the baseline
  CHECK(strategies::pick_winner(base, candidates, base.settings, 0.02, 0.2)->id == 1);
  TrialResult unguarded = candidates[0];
  unguarded.guard.reset();
  CHECK_FALSE(strategies::fails_guard(unguarded, base, 0.0));
}

TEST_CASE("the Pareto set keeps the ok trials no other beats on both scores", "[strategies]") {
  std::vector<TrialResult> trials{trial(0, 100, 1000, 128), trial(1, 150, 900, 256), trial(2, 120, 960, 512),
                                  trial(3, 110, 950, 64), trial(4, 150, 900, 32), trial(5, 200, 2000, 16)};
  trials[5].status = strategies::TrialStatus::error;
  CHECK(strategies::pareto_ids(trials) == std::vector<int>{0, 1, 2, 4});  // 3 is beaten by 2; 1 and 4 tie
  trials[1].guard->median = 1100;
  CHECK(strategies::pareto_ids(trials) == std::vector<int>{1});
}

TEST_CASE("the trial codec round-trips guard figures and decodes records without them", "[results]") {
  TrialResult guarded = trial(3, 120, 960, 512);
  guarded.guard->measured_s = 4.5;
  CHECK(boost::json::value_to<TrialResult>(boost::json::value_from(guarded)) == guarded);
  TrialResult plain = guarded;
  plain.guard.reset();
  const auto json = boost::json::value_from(plain);
  CHECK_FALSE(json.as_object().contains("guard"));
  CHECK(boost::json::value_to<TrialResult>(json) == plain);
}

// A round that judged the guard at the default 5 % would ignore what --tolerance said.
TEST_CASE("the confirmation round judges the guard with the run's tolerance", "[strategies]") {
  const probe::Settings base{{probe::SettingId::read_ahead_kb, probe::SettingValue(128)}};
  const std::vector<TrialResult> candidates{trial(1, 120.0, 92.0, 1024)};  // 20 % faster, 8 % worse on B
  auto runner = [&](const std::vector<probe::Settings>& contenders, int) {
    std::vector<TrialResult> results;
    for (const auto& c : contenders)
      results.push_back(c == base ? trial(0, 100.0, 100.0, 128) : trial(1, 120.0, 92.0, 1024));
    return results;
  };
  CHECK(strategies::confirm(base, candidates, runner, 0.02, 0, false, 0.05).winner == 0);  // beyond 5 %: kept
  CHECK(strategies::confirm(base, candidates, runner, 0.02, 0, false, 0.10).winner == 1);  // within --tolerance 10
}
