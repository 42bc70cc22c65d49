// SPDX-License-Identifier: GPL-2.0-or-later
// disktune evaluate: which strategies and seeds run, and the summary against exhaustive.
#include "tuner/evaluate/evaluate.hpp"

#include <catch2/catch.hpp>

using namespace disktune;

namespace {

tuner::EvaluationRun run(const std::string& strategy, std::uint64_t seed, double true_score, std::size_t trials) {
  tuner::EvaluationRun r;
  r.strategy = strategy;
  r.drive = "drive.txt";
  r.seed = seed;
  r.legal_count = 1080;
  r.trials = trials;
  r.measured_s = static_cast<double>(trials);
  r.true_score = true_score;
  r.final_settings = strategy + std::to_string(seed);
  return r;
}

}  // namespace

TEST_CASE("evaluate runs the named strategies in registry order and seeds from --seed", "[evaluate]") {
  tuner::EvaluateRequest request;
  REQUIRE(tuner::evaluated_strategies(request).size() == 5);
  request.options.strategies = {"coordinate-descent", "exhaustive"};
  REQUIRE(tuner::evaluated_strategies(request) == std::vector<std::string>{"exhaustive", "coordinate-descent"});
  request.first_seed = 6;
  request.options.seeds = 3;
  REQUIRE(tuner::evaluation_seeds(request) == std::vector<std::uint64_t>{6, 7, 8});
}

TEST_CASE("summaries score each run against exhaustive on the same seed and leave out strategies not run",
          "[evaluate]") {
  // Seed 1: within 2 % of exhaustive (success); seed 2: 5 % slower (failure).
  const std::vector<tuner::EvaluationRun> runs{run("exhaustive", 1, 100.0, 1000), run("exhaustive", 2, 100.0, 2000),
                                               run("coordinate-descent", 1, 98.5, 20),
                                               run("coordinate-descent", 2, 95.0, 20)};
  const auto summaries = tuner::summarize(runs);
  REQUIRE(summaries.size() == 2);
  REQUIRE(summaries[0].name == "exhaustive");
  REQUIRE(summaries[0].success_rate == 1.0);
  REQUIRE(summaries[1].name == "coordinate-descent");
  REQUIRE(summaries[1].runs == 2);
  REQUIRE(summaries[1].success_rate == 0.5);
  REQUIRE(summaries[1].trial_fraction == Approx((0.02 + 0.01) / 2));
  REQUIRE(summaries[1].large_runs == 2);
}
