// SPDX-License-Identifier: GPL-2.0-or-later
// The winner rule end to end over a noisy synthetic drive: search, confirmation round, decision.
#include "bench/adaptive.hpp"
#include "bench/stats.hpp"
#include "strategies/confirmation.hpp"
#include "strategies/registry.hpp"
#include "strategies/winner_rule.hpp"

#include "tests/support/seed_like_identify.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <random>

using namespace disktune;
using probe::SettingId;
using strategies::TrialResult;
using strategies::TrialStatus;

namespace {

// A synthetic drive with 2 % Gaussian noise per sample: every measurement draws fresh
// samples (seeded by the run seed, the configuration and a draw counter), as a real drive would.
class NoisyDrive {
 public:
  NoisyDrive(std::uint64_t seed, std::function<double(const probe::Settings&)> rate)
      : seed_(seed), rate_(std::move(rate)) {}

  std::vector<double> samples(const probe::Settings& config, int count) {
    std::mt19937_64 random(seed_ * 0x9e3779b97f4a7c15ULL ^ std::hash<std::string>{}(probe::format_settings(config)) ^
                           (++draws_ << 32));
    std::normal_distribution<double> noise(0.0, 0.02);
    std::vector<double> values;
    for (int i = 0; i < count; ++i) values.push_back(rate_(config) * (1.0 + noise(random)));
    return values;
  }

  // What the trial child does: adaptive samples against the incumbent.
  TrialResult trial(const probe::Settings& config, const strategies::TrialRequest& request) {
    bench::SamplingPlan plan;
    if (request.quick) plan.max_samples = plan.min_samples;
    TrialResult t;
    t.status = TrialStatus::ok;
    t.settings = config;
    const auto pool = samples(config, plan.max_samples);
    for (const double v : pool) {
      t.samples.push_back(v);
      if (bench::sampling_verdict(t.samples, plan, request.incumbent_low)) break;
    }
    strategies::summarize_samples(t);
    return t;
  }

  std::vector<TrialResult> confirm(const std::vector<probe::Settings>& contenders) {
    std::vector<TrialResult> results;
    for (const auto& c : contenders) results.push_back(trial(c, strategies::TrialRequest{}));
    for (auto& r : results) {
      r.samples = samples(r.settings, 10);
      strategies::summarize_samples(r);
    }
    return results;
  }

 private:
  std::uint64_t seed_;
  std::function<double(const probe::Settings&)> rate_;
  std::uint64_t draws_ = 0;
};

strategies::SearchSpace small_space() {
  strategies::SpaceOptions options;
  options.only = std::vector{SettingId::multcount, SettingId::io_support, SettingId::unmaskirq};
  return strategies::build_space(testing::seed_like_identify(), testing::legacy_capabilities(),
                                 testing::seed_baseline(), options);
}

// Search with `name`, then the confirmation round; returns the decided configuration.
probe::Settings decide(const std::string& name, NoisyDrive& drive, const strategies::SearchSpace& space) {
  TrialResult baseline = drive.trial(space.baseline(), {});
  const auto aa = drive.samples(space.baseline(), static_cast<int>(baseline.samples.size()));
  strategies::EvaluatorOptions options;
  options.noise_floor = std::fabs(bench::median(aa) - baseline.median) / baseline.median;
  strategies::Evaluator evaluator(
      space,
      strategies::Evaluator::RequestRunner(
          [&](const probe::Settings& c, const strategies::TrialRequest& r) { return drive.trial(c, r); }),
      baseline, options);
  (*strategies::make_strategy(name))->run(space, evaluator);
  const auto finals = strategies::finalists(evaluator);
  if (finals.empty()) return space.baseline();
  const auto round = strategies::confirm(
      space.baseline(), finals, [&](const auto& contenders, int) { return drive.confirm(contenders); },
      evaluator.gain_threshold());
  return round.results[round.winner].settings;
}

}  // namespace

TEST_CASE("a drive where nothing has an effect keeps the baseline in 10 of 10 seeds", "[strategies]") {
  const auto name = GENERATE(from_range(strategies::strategy_names()));
  CAPTURE(name);
  const auto space = small_space();
  int kept = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    NoisyDrive drive(seed, [](const probe::Settings&) { return 10.0; });
    kept += decide(name, drive, space) == space.baseline();
  }
  REQUIRE(kept == 10);
}

TEST_CASE("a drive with one clearly better setting is tuned to it in 10 of 10 seeds", "[strategies]") {
  const auto name = GENERATE(from_range(strategies::strategy_names()));
  CAPTURE(name);
  const auto space = small_space();
  int found = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    // io_support=1 gives 15 % more; nothing else matters.
    NoisyDrive drive(seed, [](const probe::Settings& c) { return c.at(SettingId::io_support).number() == 1 ? 11.5 : 10.0; });
    const auto decided = decide(name, drive, space);
    // The fewest and safest changes among the tied: io_support=1 alone.
    found += strategies::changes_from(space.baseline(), decided) ==
             probe::Settings{{SettingId::io_support, probe::SettingValue(std::int64_t{1})}};
  }
  REQUIRE(found == 10);
}

TEST_CASE("ties go to fewer risky changes, then fewer changes", "[strategies]") {
  const auto base = testing::seed_baseline();
  auto make = [&](probe::Settings changes, double median) {
    TrialResult t;
    t.status = TrialStatus::ok;
    t.settings = base;
    for (const auto& [id, v] : changes) t.settings[id] = v;
    t.median = median;
    t.ci_low = median * 0.99;
    t.ci_high = median * 1.01;
    return t;
  };
  TrialResult baseline = make({}, 10.0);
  const probe::SettingValue on(std::int64_t{1});
  std::vector<TrialResult> candidates{
      make({{SettingId::io_support, on}, {SettingId::unmaskirq, on}}, 12.1),  // fastest, 2 risky
      make({{SettingId::io_support, on}}, 12.0),                              // tied, 1 risky
      make({{SettingId::readahead, probe::SettingValue(std::int64_t{256})}, {SettingId::io_support, on}}, 11.95),
      make({{SettingId::unmaskirq, on}}, 10.5),  // significantly slower than the fastest
  };
  const TrialResult* pick = strategies::pick_winner(baseline, candidates, base, 0.02);
  REQUIRE(pick == &candidates[1]);
  // Nothing beats the baseline by more than 2 %: keep it.
  std::vector<TrialResult> flat{make({{SettingId::io_support, on}}, 10.15)};
  REQUIRE(strategies::pick_winner(baseline, flat, base, 0.02) == nullptr);
  REQUIRE(strategies::risky_change_count(base, candidates[0].settings) == 2);
  REQUIRE(strategies::risky_change_count(base, candidates[2].settings) == 1);
  // The tie is named: the faster-by-median candidate and the rule that broke it.
  candidates[0].id = 7;
  const auto tie = strategies::tie_break(baseline, candidates, *pick, base, 0.02);
  REQUIRE(tie);
  REQUIRE(tie->faster_trial_id == 7);
  REQUIRE(tie->faster_median == 12.1);
  REQUIRE(tie->rule == "fewer risky changes (1 against 2)");
  // Same risk, fewer changes: candidates[1] (1 change) against [2] (2 changes, 1 risky).
  std::vector<TrialResult> same_risk{make({{SettingId::readahead, probe::SettingValue(std::int64_t{256})},
                                          {SettingId::io_support, on}},
                                         12.05),
                                     candidates[1]};
  same_risk[0].id = 3;
  const TrialResult* simpler = strategies::pick_winner(baseline, same_risk, base, 0.02);
  REQUIRE(simpler == &same_risk[1]);
  REQUIRE(strategies::tie_break(baseline, same_risk, *simpler, base, 0.02)->rule == "fewer changes (1 against 2)");
  // The fastest won: no tie to name.
  std::vector<TrialResult> alone{candidates[1]};
  REQUIRE_FALSE(strategies::tie_break(baseline, alone, alone[0], base, 0.02));
}

TEST_CASE("the finalists a winner is not separated from are named", "[strategies]") {
  const auto base = testing::seed_baseline();
  const probe::SettingValue on(std::int64_t{1});
  auto trial = [&](int id, probe::Settings changes, double median, double low, double high) {
    TrialResult t;
    t.status = TrialStatus::ok;
    t.settings = base;
    for (const auto& [setting, v] : changes) t.settings[setting] = v;
    t.id = id;
    t.median = median;
    t.ci_low = low;
    t.ci_high = high;
    return t;
  };
  const TrialResult winner = trial(4, {{SettingId::io_support, on}}, 12.0, 11.9, 12.1);
  std::vector<TrialResult> rivals{
      winner,
      trial(3, {{SettingId::unmaskirq, on}}, 11.9, 11.7, 12.0),                                  // overlaps: tied
      trial(5, {{SettingId::multcount, probe::SettingValue(std::int64_t{16})}}, 11.0, 10.9, 11.1),  // clear
      trial(6, {{SettingId::readahead, probe::SettingValue(std::int64_t{0})}}, 11.85, 11.8, 11.88),  // 1.3 % behind
  };
  const auto tied = strategies::unseparated_from(rivals, winner, 0.02);
  REQUIRE(tied.size() == 2);
  CHECK(tied[0].trial_id == 3);
  CHECK(tied[0].median == 11.9);
  CHECK(tied[1].trial_id == 6);  // its interval is clear, but it is behind by less than the minimum gain
  rivals[1].status = TrialStatus::error;
  CHECK(strategies::unseparated_from(rivals, winner, 0.02).size() == 1);
  CHECK(strategies::unseparated_from(rivals, winner, 0.01).empty());  // 1.3 % clears a 1 % minimum gain
}

TEST_CASE("a noisy faster median does not veto a significant winner", "[strategies]") {
  // The confirmation round of a throttled loop device (tune_multi_loop): read_ahead_kb=0 had
  // the higher median but one 7.1 MB/s sample put its interval over the baseline's;
  // read_ahead_kb=16 was clearly faster. The rule kept the baseline.
  const auto base = testing::seed_baseline();
  auto make = [&](std::int64_t read_ahead, double median, double low, double high) {
    TrialResult t;
    t.status = TrialStatus::ok;
    t.settings = base;
    t.settings[SettingId::readahead] = probe::SettingValue(read_ahead);
    t.median = median;
    t.ci_low = low;
    t.ci_high = high;
    return t;
  };
  const TrialResult baseline = make(256, 12.62, 11.90, 13.10);
  const std::vector<TrialResult> candidates{make(0, 25.68, 7.11, 28.38), make(16, 20.72, 13.72, 23.58)};
  const TrialResult* pick = strategies::pick_winner(baseline, candidates, base, 0.02);
  REQUIRE(pick == &candidates[1]);
  // Neither interval clear of the baseline's: keep it.
  const std::vector<TrialResult> both_noisy{make(0, 25.68, 7.11, 28.38), make(16, 20.72, 12.00, 23.58)};
  REQUIRE(strategies::pick_winner(baseline, both_noisy, base, 0.02) == nullptr);
}

TEST_CASE("a setting 4 % better, close to the 2 % noise, is found by the default strategy in at least 9 of 10 seeds", "[strategies]") {
  // The search's few samples rarely separate 4 % under 2 % noise: the close candidate must
  // reach the confirmation round and get the samples that separate it.
  const auto space = small_space();
  int found = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    NoisyDrive drive(seed, [](const probe::Settings& c) { return c.at(SettingId::io_support).number() == 1 ? 10.4 : 10.0; });
    const auto decided = decide(strategies::default_strategy_name(), drive, space);
    found += decided.at(SettingId::io_support).number() == 1;  // the others have no effect
  }
  REQUIRE(found >= 9);  // before close finalists got more samples: 5 of 10
}
