// SPDX-License-Identifier: GPL-2.0-or-later
// disktune evaluate: which strategies and seeds run, each drive's true optimum by brute force,
// and the summaries that judge every run against it.
#include "tuner/evaluate/evaluate.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace disktune;

namespace {

// A run on a drive of 1080 configurations whose baseline scores 50 and optimum 100.
tuner::EvaluationRun run(const std::string& strategy, std::uint64_t seed, double true_score, std::size_t trials) {
  tuner::EvaluationRun r;
  r.strategy = strategy;
  r.drive = "drive.txt";
  r.seed = seed;
  r.legal_count = 1080;
  r.trials = trials;
  r.measured_s = static_cast<double>(trials);
  r.true_score = true_score;
  r.baseline_score = 50.0;
  r.optimum_score = 100.0;
  r.final_settings = strategy + std::to_string(seed);
  return r;
}

const std::string kSeedDrive = std::string(DISKTUNE_TEST_DATA) + "/identify/seed_ibm-djna-352500.hdparm-i.txt";

}  // namespace

TEST_CASE("evaluate runs the named strategies in registry order, exhaustive only when named, seeds from --seed",
          "[evaluate]") {
  tuner::EvaluateRequest request;
  const auto all = tuner::evaluated_strategies(request);
  REQUIRE(all.size() == 4);
  REQUIRE(std::find(all.begin(), all.end(), "exhaustive") == all.end());
  request.options.strategies = {"coordinate-descent", "exhaustive"};
  REQUIRE(tuner::evaluated_strategies(request) == std::vector<std::string>{"exhaustive", "coordinate-descent"});
  request.first_seed = 6;
  request.options.seeds = 3;
  REQUIRE(tuner::evaluation_seeds(request) == std::vector<std::uint64_t>{6, 7, 8});
}

TEST_CASE("summaries judge each run against the true optimum: success within 3 %, regret, false winners",
          "[evaluate]") {
  // 98.5: success (1.5 % regret); 96.0: failure (4 %); 40.0: below the baseline's 50 (a false winner).
  const std::vector<tuner::EvaluationRun> runs{run("coordinate-descent", 1, 98.5, 20),
                                               run("coordinate-descent", 2, 96.0, 20),
                                               run("coordinate-descent", 3, 40.0, 20), run("racing", 1, 100.0, 54)};
  const auto summaries = tuner::summarize(runs);
  REQUIRE(summaries.size() == 2);  // strategies not run are left out, registry order kept
  const auto& cd = summaries[0].name == "coordinate-descent" ? summaries[0] : summaries[1];
  const auto& racing = summaries[0].name == "racing" ? summaries[0] : summaries[1];
  CHECK(cd.runs == 3);
  CHECK(cd.success_rate == Approx(1.0 / 3));
  CHECK(cd.false_winners == 1);
  CHECK(cd.mean_regret_pct == Approx((1.5 + 4.0 + 60.0) / 3));
  CHECK(cd.worst_regret_pct == Approx(60.0));
  CHECK(cd.trial_fraction == Approx(20.0 / 1080));
  CHECK(cd.large_runs == 3);
  CHECK(racing.success_rate == 1.0);
  CHECK(racing.mean_regret_pct == 0.0);
  CHECK(racing.false_winners == 0);
}

TEST_CASE("a drive's truth is the best noise-free score over every legal configuration, the baseline among them",
          "[evaluate]") {
  REQUIRE(std::filesystem::exists(kSeedDrive));
  tuner::EvaluateRequest request;
  request.measure.only = std::vector<probe::SettingId>{probe::SettingId::using_dma, probe::SettingId::unmaskirq};
  const auto truths = tuner::drive_truths({kSeedDrive}, request);
  REQUIRE(truths.size() == 1);
  const auto& truth = truths.front();
  CHECK(truth.legal_count == 4);  // using_dma 0/1 x unmaskirq 0/1
  CHECK(truth.baseline_score > 0.0);
  CHECK(truth.optimum_score >= truth.baseline_score);
  // The seed drive's PIO baseline is slow; DMA is what the walkthrough's winner turns on.
  CHECK_THAT(truth.optimum, Catch::Contains("using_dma=1"));
  CHECK(truth.optimum_score > 1.5 * truth.baseline_score);
}
