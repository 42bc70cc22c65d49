// SPDX-License-Identifier: GPL-2.0-or-later
// Every registered strategy against a recorded-style synthetic drive (Kernel Tuner's test).
#include "strategies/registry.hpp"

#include "bench/adaptive.hpp"

#include "tests/support/ok_trial.hpp"
#include "tests/support/seed_like_identify.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace disktune;
using probe::SettingId;
using strategies::TrialResult;
using strategies::TrialStatus;

namespace {

std::int64_t get(const probe::Settings& s, SettingId id) { return s.at(id).number(); }

// Separable PIO model: more sectors per interrupt and 32-bit I/O help; unmaskirq=1 hangs.
TrialResult synthetic_trial(const probe::Settings& config) {
  TrialResult trial;
  if (get(config, SettingId::unmaskirq) == 1) {
    trial.status = TrialStatus::hang;
    trial.detail = "synthetic hang";
    return trial;
  }
  const double mult = std::log2(static_cast<double>(get(config, SettingId::multcount)) + 1.0);
  const double io = get(config, SettingId::io_support) == 3 ? 1.5 : get(config, SettingId::io_support) == 1 ? 1.2 : 0.0;
  trial.status = TrialStatus::ok;
  trial.median = 3.0 + 0.5 * mult + io;
  trial.samples = {trial.median};
  return trial;
}

strategies::SearchSpace small_space() {
  strategies::SpaceOptions options;
  options.only = std::vector{SettingId::multcount, SettingId::io_support, SettingId::unmaskirq};
  return strategies::build_space(testing::seed_like_identify(), testing::legacy_capabilities(),
                                 testing::seed_baseline(), options);
}

}  // namespace

TEST_CASE("every strategy stays in the space, respects the budget and finds the optimum", "[strategies]") {
  const auto name = GENERATE(from_range(strategies::strategy_names()));
  CAPTURE(name);
  const auto space = small_space();
  auto strategy = strategies::make_strategy(name);
  REQUIRE(strategy);

  SECTION("unbounded budget: the known optimum multcount=16 io_support=3 unmaskirq=0") {
    strategies::Evaluator evaluator(space, synthetic_trial, synthetic_trial(space.baseline()));
    (*strategy)->run(space, evaluator);
    for (const auto& trial : evaluator.trials()) REQUIRE(space.contains(trial.settings));
    const auto& best = evaluator.best();
    REQUIRE(get(best.settings, SettingId::multcount) == 16);
    REQUIRE(get(best.settings, SettingId::io_support) == 3);
    REQUIRE(get(best.settings, SettingId::unmaskirq) == 0);
    // The hung value is screened alone once and never combined again.
    int hangs = 0;
    for (const auto& trial : evaluator.trials()) hangs += trial.status == TrialStatus::hang;
    REQUIRE(hangs == 1);
  }
  SECTION("a budget of 4 trials is never exceeded") {
    strategies::EvaluatorOptions options;
    options.max_trials = 4;
    strategies::Evaluator evaluator(space, synthetic_trial, synthetic_trial(space.baseline()), options);
    (*strategy)->run(space, evaluator);
    REQUIRE(evaluator.trials().size() == 4);
  }
  auto timed = [](const probe::Settings& config) {  // every trial measures for 2 s
    auto trial = synthetic_trial(config);
    trial.measured_s = 2.0;
    return trial;
  };
  SECTION("a time budget of 5 measured seconds stops new trials once it is spent") {
    strategies::EvaluatorOptions options;
    options.time_budget_s = 5.0;
    strategies::Evaluator evaluator(space, timed, timed(space.baseline()), options);
    (*strategy)->run(space, evaluator);
    REQUIRE(evaluator.trials().size() == 3);  // 0, 2, 4 s spent before each: the third ends at 6 s
    REQUIRE(evaluator.measured_s() == Approx(6.0).epsilon(1e-12));
  }
  SECTION("the guard objective's samples count against the time budget") {
    auto guarded = [&timed](const probe::Settings& config) {  // 1 s of A, 1 s of the guard B
      auto trial = timed(config);
      trial.measured_s = 1.0;
      trial.guard = strategies::guard_figures_of({5.0, 5.0, 5.0});
      trial.guard->measured_s = 1.0;
      return trial;
    };
    strategies::EvaluatorOptions options;
    options.time_budget_s = 5.0;
    strategies::Evaluator evaluator(space, guarded, guarded(space.baseline()), options);
    (*strategy)->run(space, evaluator);
    REQUIRE(evaluator.trials().size() == 3);  // as 2 s trials: B's second counts
    REQUIRE(evaluator.measured_s() == Approx(6.0).epsilon(1e-12));
  }
  SECTION("the time budget counts what was measured before the search and keeps the reserve") {
    strategies::EvaluatorOptions options;
    options.time_budget_s = 10.0;
    options.spent_before_s = 3.0;  // the baseline and its noise repeats
    options.reserve_s = 2.5;       // the confirmation round
    strategies::Evaluator evaluator(space, timed, timed(space.baseline()), options);
    (*strategy)->run(space, evaluator);
    REQUIRE(evaluator.trials().size() == 3);  // 5.5, 7.5, 9.5 s counted before each
    REQUIRE_FALSE(evaluator.budget_left());
  }
}

TEST_CASE("exhaustive evaluates every legal configuration without a quarantined value", "[strategies]") {
  const auto space = small_space();
  strategies::Evaluator evaluator(space, synthetic_trial, synthetic_trial(space.baseline()));
  auto strategy = strategies::make_strategy("exhaustive");
  REQUIRE(strategy);
  (*strategy)->run(space, evaluator);
  // 6 multcount x 3 io_support with unmaskirq 0 (17 besides the baseline) + the one hang.
  REQUIRE(evaluator.trials().size() == 6 * 3 - 1 + 1);
}

TEST_CASE("the evaluator keeps the baseline when nothing is clearly faster", "[strategies]") {
  const auto space = small_space();
  auto flat = [](const probe::Settings&) {
    TrialResult t;
    t.status = TrialStatus::ok;
    t.median = 10.1;  // 1 % above the baseline: inside the 2 % noise floor
    return t;
  };
  TrialResult base;
  base.status = TrialStatus::ok;
  base.median = 10.0;
  strategies::Evaluator evaluator(space, flat, base);
  auto strategy = strategies::make_strategy("one-at-a-time");
  REQUIRE(strategy);
  (*strategy)->run(space, evaluator);
  REQUIRE(evaluator.best().id == 0);
}

TEST_CASE("a trial the gain bar stopped after one sample is never the answer", "[strategies]") {
  // One value is a point interval ([x, x]: summarize_samples). The gain bar lies below the
  // minimum gain over the incumbent's lower bound, so a first sample under it cannot pass the
  // winner rule's median test (more than 2 % above the incumbent's median), even where its
  // point clears the baseline's interval (a quiet device: noise 0.1 %, baseline 100 +- 0.1,
  // bar 99.9 x 1.02 x 0.996 = 101.5, a point at 101.4): the one-sample trials the search keeps
  // cannot win. A first sample above the bar goes on sampling.
  struct Case { double noise, low, high; };
  for (const Case c : {Case{0.02, 99.0, 101.0}, Case{0.001, 99.9, 100.1}}) {
    strategies::EvaluatorOptions options;
    options.noise_floor = c.noise;
    const auto space = small_space();
    double bar = 0.0;
    auto stopped_below = [&bar](const probe::Settings&) {
      TrialResult t;
      t.status = TrialStatus::ok;
      t.samples = {bar - 0.1};
      t.sampling_stop = bench::to_string(bench::SamplingStop::no_gain);
      strategies::summarize_samples(t);  // as a trial child's verdict gives it
      return t;
    };
    strategies::Evaluator evaluator(space, stopped_below, testing::ok_trial(100.0, c.low, c.high), options);
    REQUIRE(evaluator.gain_bar());
    bar = *evaluator.gain_bar();
    CHECK(bar == Approx(c.low * 1.02 * (1.0 - 4.0 * c.noise)));
    const auto config = space.with_choice(space.baseline(), 0, space.choice_of(space.baseline(), 0) == 0 ? 1 : 0);
    const auto trial = evaluator.evaluate(config);
    REQUIRE(trial);
    CHECK(trial->ci_low == trial->ci_high);
    CHECK_FALSE(evaluator.clearly_faster(*trial.get(), evaluator.baseline()));
    CHECK(evaluator.best().id == 0);
    if (c.noise < 0.01) CHECK(trial->median > c.high);  // its point clears the baseline's interval
  }
}

TEST_CASE("make_strategy rejects an unknown name and lists the valid ones", "[strategies]") {
  auto bad = strategies::make_strategy("annealing");
  REQUIRE_FALSE(bad);
  REQUIRE(bad.error().message().find("one-at-a-time, exhaustive") != std::string::npos);
}

TEST_CASE("a failed transfer mode quarantines that (using_dma, xfermode) pair, not DMA itself", "[strategies]") {
  auto id = testing::seed_like_identify();
  id.cable_80wire = true;
  strategies::SpaceOptions options;
  options.only = std::vector{SettingId::multcount, SettingId::using_dma, SettingId::xfermode};
  const auto space = strategies::build_space(id, testing::legacy_capabilities(), testing::seed_baseline(), options);
  // DMA is fast except in udma4, which corrupts; multcount helps a little on top.
  auto runner = [](const probe::Settings& c) {
    TrialResult t;
    if (get(c, SettingId::xfermode) == 68) {
      t.status = TrialStatus::unstable;
      return t;
    }
    t.status = TrialStatus::ok;
    t.median = (get(c, SettingId::using_dma) == 1 ? 14.0 : 4.0) + (get(c, SettingId::multcount) == 16 ? 0.5 : 0.0);
    return t;
  };
  strategies::Evaluator evaluator(space, runner, runner(space.baseline()));
  auto strategy = strategies::make_strategy("exhaustive");
  REQUIRE(strategy);
  (*strategy)->run(space, evaluator);
  REQUIRE(evaluator.quarantine().size() == 1);
  bool dma_with_multcount = false;
  for (const auto& trial : evaluator.trials()) {
    REQUIRE((get(trial.settings, SettingId::xfermode) != 68 || trial.status != TrialStatus::ok));
    dma_with_multcount |= get(trial.settings, SettingId::using_dma) == 1 && get(trial.settings, SettingId::multcount) == 16;
  }
  REQUIRE(dma_with_multcount);
  REQUIRE(get(evaluator.best().settings, SettingId::using_dma) == 1);
}

TEST_CASE("DMA that fails at the current mode is quarantined with every mode, after one trial", "[strategies]") {
  auto id = testing::seed_like_identify();
  strategies::SpaceOptions options;
  options.only = std::vector{SettingId::using_dma, SettingId::xfermode};
  const auto space = strategies::build_space(id, testing::legacy_capabilities(), testing::seed_baseline(), options);
  REQUIRE(get(space.baseline(), SettingId::using_dma) == 0);
  // Any pair with DMA on hangs (the simulator's "hang" on using_dma=1).
  auto runner = [](const probe::Settings& c) {
    TrialResult t;
    t.status = get(c, SettingId::using_dma) == 1 ? TrialStatus::hang : TrialStatus::ok;
    t.median = t.status == TrialStatus::ok ? 4.0 : 0.0;
    return t;
  };
  strategies::Evaluator evaluator(space, runner, runner(space.baseline()));
  auto strategy = strategies::make_strategy("exhaustive");
  REQUIRE(strategy);
  (*strategy)->run(space, evaluator);
  int dma_trials = 0;
  for (const auto& trial : evaluator.trials())
    if (get(trial.settings, SettingId::using_dma) == 1) {
      ++dma_trials;
      // The one DMA trial kept the baseline's mode: a single suspect.
      REQUIRE(get(trial.settings, SettingId::xfermode) == get(space.baseline(), SettingId::xfermode));
    }
  REQUIRE(dma_trials == 1);
  REQUIRE(evaluator.quarantine().count(probe::Settings{{SettingId::using_dma, probe::SettingValue(std::int64_t{1})}}) == 1);
  REQUIRE(evaluator.trials().size() > 1);  // the PIO modes were still tried
}

TEST_CASE("coordinate-descent combines gains that are within the noise alone but significant together",
          "[strategies]") {
  strategies::SpaceOptions options;
  options.only = std::vector{SettingId::multcount, SettingId::io_support};
  const auto space = strategies::build_space(testing::seed_like_identify(), testing::legacy_capabilities(),
                                             testing::seed_baseline(), options);
  // multcount=16 and io_support=3 each add 1.5 % (below the 2 % minimum gain); together 3 %.
  // Every interval is the median +-1 %.
  auto runner = [](const probe::Settings& c) {
    TrialResult t;
    t.status = TrialStatus::ok;
    t.median = 10.0 * (1.0 + (get(c, SettingId::multcount) == 16 ? 0.015 : 0.0) +
                             (get(c, SettingId::io_support) == 3 ? 0.015 : 0.0));
    t.samples = {t.median};
    t.ci_low = 0.99 * t.median;
    t.ci_high = 1.01 * t.median;
    return t;
  };
  strategies::Evaluator evaluator(space, runner, runner(space.baseline()));
  auto strategy = strategies::make_strategy("coordinate-descent");
  REQUIRE(strategy);
  (*strategy)->run(space, evaluator);
  for (const auto& trial : evaluator.trials()) {
    const auto changed = strategies::changes_from(space.baseline(), trial.settings).size();
    if (changed == 1) REQUIRE_FALSE(evaluator.clearly_faster(trial, evaluator.baseline()));
  }
  const auto& best = evaluator.best();
  REQUIRE(get(best.settings, SettingId::multcount) == 16);
  REQUIRE(get(best.settings, SettingId::io_support) == 3);
  REQUIRE(evaluator.trials().size() < space.legal_count() - 1);  // fewer than exhaustive's
}

// The noise between trials exceeds the smallest gain (more than one trial's interval shows),
// so "clearly slower" is judged against the incumbent's lower bound less that noise
// (strategies/evaluator.cpp), whether or not trials take every sample.
TEST_CASE("above the smallest gain's noise a candidate is asked to beat the incumbent's bound less the noise", "[strategies]") {
  const auto space = small_space();
  std::vector<std::optional<double>> lows;
  auto runner = [&](const probe::Settings& config, const strategies::TrialRequest& request) {
    lows.push_back(request.incumbent_low);
    return synthetic_trial(config);
  };
  const TrialResult base = testing::ok_trial(10.0, 9.0, 11.0);
  strategies::EvaluatorOptions options;
  options.all_samples = true;
  options.noise_floor = 0.04;
  strategies::Evaluator noisy(space, runner, base, options);
  auto config = space.baseline();
  config[SettingId::io_support] = probe::SettingValue(std::int64_t{1});
  REQUIRE(noisy.evaluate(config));
  REQUIRE(lows.back() == Approx(9.0 * 0.96));
  options.all_samples = false;  // more samples did not lower the noise: still the margin
  strategies::Evaluator between(space, runner, base, options);
  REQUIRE(between.evaluate(config));
  REQUIRE(lows.back() == Approx(9.0 * 0.96));
  options.noise_floor = 0.015;  // within the 2 % smallest gain
  strategies::Evaluator quiet(space, runner, base, options);
  REQUIRE(quiet.evaluate(config));
  REQUIRE(lows.back() == Approx(9.0));
}
