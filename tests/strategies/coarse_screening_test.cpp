// SPDX-License-Identifier: GPL-2.0-or-later
// Coarse-first screening and coordinate-descent's passes over the knobs that act, on the
// throttled test bed's shape: a bad start (max_sectors_kb 128) where only
// max_sectors_kb can help and every other knob ties.
#include "strategies/coarse_screening.hpp"

#include "strategies/registry.hpp"
#include "tests/support/ok_trial.hpp"
#include "tests/support/setting_values.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;
using strategies::TrialResult;
using strategies::TrialStatus;
using testing::name;
using testing::num;

namespace {

std::vector<SettingValue> nums(std::initializer_list<std::int64_t> values) {
  std::vector<SettingValue> out;
  for (const auto v : values) out.push_back(num(v));
  return out;
}

probe::Capability supported(SettingId id, std::vector<SettingValue> values) {
  return probe::Capability{id, probe::Support::supported, std::move(values), ""};
}

// A loop device's queue knobs (plan's ladders on this kernel), without scheduler tunables;
// with `paired`, nr_requests' values probed per scheduler, so they form one group.
strategies::SearchSpace loop_space(bool paired = false) {
  auto nr = supported(SettingId::nr_requests, nums({4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048}));
  if (paired) nr.values_by_scheduler = {{"none", nums({4, 8, 16, 32, 64})}, {"mq-deadline", nr.values}, {"kyber", nr.values}};
  const std::vector<probe::Capability> caps{
      supported(SettingId::scheduler, {name("kyber"), name("mq-deadline"), name("none")}), nr,
      supported(SettingId::max_sectors_kb, nums({4, 8, 16, 32, 64, 128, 256, 512, 1024, 1280})),
      supported(SettingId::read_ahead_kb, nums({0, 16, 32, 64, 128, 256, 512, 1024, 2048, 2560, 4096, 8192})),
      supported(SettingId::nomerges, nums({0, 1, 2})),
      supported(SettingId::rq_affinity, nums({0, 1, 2}))};
  const probe::Settings baseline{{SettingId::scheduler, name("mq-deadline")}, {SettingId::nr_requests, num(256)},
                                 {SettingId::max_sectors_kb, num(128)},       {SettingId::read_ahead_kb, num(128)},
                                 {SettingId::nomerges, num(0)},               {SettingId::rq_affinity, num(1)}};
  return strategies::build_space(std::nullopt, caps, baseline, {});
}

// 100 IOPS: larger requests read more per I/O up to 1024 KiB; no readahead reads 8x slower;
// nothing else acts. Intervals +-1 %.
TrialResult bed_trial(const probe::Settings& config) {
  const double msk = static_cast<double>(std::min<std::int64_t>(config.at(SettingId::max_sectors_kb).number(), 1024));
  const double median = 11.5 * msk / 128.0 * (config.at(SettingId::read_ahead_kb).number() == 0 ? 0.125 : 1.0);
  return testing::ok_trial(median, 0.99 * median, 1.01 * median);
}

std::int64_t value_of(const strategies::SearchSpace& space, std::size_t g, std::size_t c) {
  return space.groups()[g].choices[c].begin()->second.number();
}

std::size_t group_of(const strategies::SearchSpace& space, SettingId id) {
  for (std::size_t g = 0; g < space.groups().size(); ++g)
    if (space.groups()[g].settings.front() == id) return g;
  FAIL("no group for " << probe::setting_name(id));
  return 0;
}

}  // namespace

TEST_CASE("coarse choices of a long ladder: its ends, then halfway to each end from the baseline", "[strategies]") {
  const auto space = loop_space();
  const auto g = group_of(space, SettingId::read_ahead_kb);
  std::vector<std::int64_t> values;
  for (const auto c : strategies::coarse_choices(space, g)) values.push_back(value_of(space, g, c));
  REQUIRE(values == std::vector<std::int64_t>{8192, 0, 2048, 32});
  // A short categorical group: every other choice.
  REQUIRE(strategies::coarse_choices(space, group_of(space, SettingId::nomerges)).size() == 2);
}

TEST_CASE("a scheduler paired with nr_requests: each scheduler near the baseline's nr_requests, then the ladder",
          "[strategies]") {
  const auto space = loop_space(true);
  const auto g = group_of(space, SettingId::scheduler);
  REQUIRE(space.groups()[g].settings.size() == 2);
  REQUIRE(space.groups()[g].choices.size() > 20);
  std::vector<std::string> picks;
  for (const auto c : strategies::coarse_choices(space, g))
    picks.push_back(probe::format_settings(space.groups()[g].choices[c]));
  REQUIRE(picks == std::vector<std::string>{"scheduler=kyber nr_requests=256", "scheduler=none nr_requests=64",
                                            "scheduler=mq-deadline nr_requests=2048", "scheduler=mq-deadline nr_requests=4",
                                            "scheduler=mq-deadline nr_requests=1024",
                                            "scheduler=mq-deadline nr_requests=32"});
}

TEST_CASE("with one trial per knob every knob is screened and the knob that decides is found",
          "[strategies]") {
  const auto space = loop_space(GENERATE(false, true));
  strategies::EvaluatorOptions options;
  options.max_trials = 12;  // fewer than the 23 trials of scheduler and nr_requests alone
  strategies::Evaluator evaluator(space, bed_trial, bed_trial(space.baseline()), options);
  (*strategies::make_strategy("coordinate-descent"))->run(space, evaluator);
  for (std::size_t g = 0; g < space.groups().size(); ++g) {
    INFO(probe::setting_name(space.groups()[g].settings.front()));
    REQUIRE(std::any_of(evaluator.trials().begin(), evaluator.trials().end(), [&](const TrialResult& t) {
      return space.choice_of(t.settings, g) != space.choice_of(space.baseline(), g);
    }));
  }
  REQUIRE(evaluator.best().settings.at(SettingId::max_sectors_kb).number() >= 1024);
  REQUIRE(evaluator.best().median == Approx(11.5 * 8));
}

TEST_CASE("coordinate-descent goes deep only in the knobs that act and never re-screens the others",
          "[strategies]") {
  const auto space = loop_space();
  strategies::Evaluator evaluator(space, bed_trial, bed_trial(space.baseline()));
  (*strategies::make_strategy("coordinate-descent"))->run(space, evaluator);
  const auto acting = strategies::acting_groups(space, evaluator);
  REQUIRE(acting == std::vector{group_of(space, SettingId::max_sectors_kb), group_of(space, SettingId::read_ahead_kb)});
  const auto tied = {SettingId::scheduler, SettingId::nr_requests, SettingId::nomerges, SettingId::rq_affinity};
  std::size_t tied_elsewhere = 0;
  for (const auto& trial : evaluator.trials()) {
    const auto changes = strategies::changes_from(space.baseline(), trial.settings);
    const bool tied_knob = std::any_of(tied.begin(), tied.end(), [&](SettingId id) { return changes.count(id) > 0; });
    if (!tied_knob || changes.size() == 1) continue;
    // Away from the baseline a tied knob is tried once at its coarse values, around the final
    // incumbent (a knob may act only there), and in the one combination of small gains.
    INFO(probe::format_settings(changes));
    REQUIRE(trial.settings.at(SettingId::max_sectors_kb).number() >= 1024);
    ++tied_elsewhere;
  }
  // One check pass at the coarse values: scheduler 2, nr_requests 4, nomerges 2, rq_affinity 2;
  // and the combination.
  REQUIRE(tied_elsewhere <= 2 + 4 + 2 + 2 + 1);
  // Screening: 2 + 4 + 4 + 4 + 2 + 2 coarse, 6 + 8 deep in the two that act; a pass from the
  // new incumbent over those two (some moves known) and the coarse check pass: 51 trials, where
  // the 42 single changes and a full pass of every knob after each move took 61.
  INFO(evaluator.trials().size() << " trials");
  REQUIRE(evaluator.trials().size() < 61);
  REQUIRE(evaluator.best().settings.at(SettingId::max_sectors_kb).number() >= 1024);
}

TEST_CASE("when no knob acts the search ends after the screening", "[strategies]") {
  const auto space = loop_space();
  auto flat = [](const probe::Settings&) { return testing::ok_trial(10.0, 9.9, 10.1); };
  strategies::Evaluator evaluator(space, flat, flat(space.baseline()));
  (*strategies::make_strategy("coordinate-descent"))->run(space, evaluator);
  REQUIRE(strategies::acting_groups(space, evaluator).empty());
  REQUIRE(evaluator.trials().size() == strategies::coarse_screening_trials(space));
  REQUIRE(evaluator.best().id == 0);
}

TEST_CASE("once a single change beats the baseline the deep screening stays in its group", "[strategies]") {
  // The bed's bad start: max_sectors_kb 1024 reads 8x faster; read_ahead_kb acts too (0 reads
  // 8x slower), but its other choices around the baseline no longer say where the optimum is.
  const auto space = loop_space();
  strategies::Evaluator evaluator(space, bed_trial, bed_trial(space.baseline()));
  strategies::screen_coarse_first(space, evaluator);
  const auto ra = group_of(space, SettingId::read_ahead_kb);
  const auto msk = group_of(space, SettingId::max_sectors_kb);
  std::size_t ra_trials = 0, msk_trials = 0;
  for (const auto& trial : evaluator.trials()) {
    ra_trials += space.choice_of(trial.settings, ra) != space.choice_of(space.baseline(), ra);
    msk_trials += space.choice_of(trial.settings, msk) != space.choice_of(space.baseline(), msk);
  }
  REQUIRE(ra_trials == strategies::coarse_choices(space, ra).size());
  // Every max_sectors_kb value is measured or lies between two slower ones (bracketed_slower).
  std::size_t bracketed = 0;
  for (std::size_t c = 0; c < space.groups()[msk].choices.size(); ++c)
    if (!evaluator.measured(space.with_choice(space.baseline(), msk, c))) {
      INFO("max_sectors_kb " << value_of(space, msk, c));
      REQUIRE(strategies::bracketed_slower(space, evaluator, msk, c, evaluator.best()));
      ++bracketed;
    }
  REQUIRE(msk_trials + bracketed == space.groups()[msk].choices.size() - 1);
  REQUIRE(evaluator.best().settings.at(SettingId::max_sectors_kb).number() >= 1024);
}

TEST_CASE("a ladder value between two clearly slower ones, the incumbent outside them, is bracketed",
          "[strategies]") {
  const auto space = loop_space();
  const auto msk = group_of(space, SettingId::max_sectors_kb);
  auto choice = [&](std::int64_t kb) {
    for (std::size_t c = 0; c < space.groups()[msk].choices.size(); ++c)
      if (value_of(space, msk, c) == kb) return c;
    FAIL("no max_sectors_kb " << kb);
    return std::size_t{0};
  };
  // Measured: 4 and 128 (the baseline) far slower than 1024; 512 tied with 1024 (intervals overlap).
  strategies::Evaluator evaluator(space, bed_trial, bed_trial(space.baseline()));
  for (const std::int64_t kb : {4, 1024})
    (void)evaluator.evaluate(space.with_choice(space.baseline(), msk, choice(kb)));
  auto tied = [&](const probe::Settings& c) {
    return c.at(SettingId::max_sectors_kb).number() == 512 ? testing::ok_trial(92.0, 90.0, 93.0) : bed_trial(c);
  };
  strategies::Evaluator with_tie(space, tied, tied(space.baseline()));
  for (const std::int64_t kb : {4, 512, 1024})
    (void)with_tie.evaluate(space.with_choice(space.baseline(), msk, choice(kb)));
  const auto& best = *evaluator.measured(space.with_choice(space.baseline(), msk, choice(1024)));
  const auto& best_tied = *with_tie.measured(space.with_choice(space.baseline(), msk, choice(1024)));
  for (const std::int64_t kb : {8, 16, 32, 64}) {
    INFO("max_sectors_kb " << kb);
    REQUIRE(strategies::bracketed_slower(space, evaluator, msk, choice(kb), best));
  }
  // Between the baseline and 1024: no slower point between them and the incumbent.
  REQUIRE_FALSE(strategies::bracketed_slower(space, evaluator, msk, choice(256), best));
  REQUIRE_FALSE(strategies::bracketed_slower(space, evaluator, msk, choice(1280), best));  // nothing beyond it
  // 512 ties with 1024: 256 lies between 128 and a tie, not two slower points.
  REQUIRE_FALSE(strategies::bracketed_slower(space, with_tie, msk, choice(256), best_tied));
}

TEST_CASE("a trial stopped as hopeless after one sample shows a knob acting only by a factor of two",
          "[strategies]") {
  // Every change is hopeless next to a fast incumbent: one sample each, no interval. The
  // scheduler and nr_requests read 5 % apart (one sample's noise); no readahead 8x slower,
  // max_sectors_kb 4 32x.
  const auto space = loop_space(true);
  auto hopeless = [&space](const probe::Settings& config) {
    if (config == space.baseline()) return bed_trial(config);
    const bool off = config.at(SettingId::scheduler) == name("kyber") || config.at(SettingId::nr_requests).number() % 3 == 2;
    const double median = bed_trial(config).median * (off ? 0.95 : 1.0);
    auto trial = testing::ok_trial(median, median, median);
    trial.sampling_stop = "clearly slower";
    return trial;
  };
  strategies::Evaluator evaluator(space, hopeless, hopeless(space.baseline()));
  strategies::screen_coarse_first(space, evaluator);
  auto expected = std::vector{group_of(space, SettingId::max_sectors_kb), group_of(space, SettingId::read_ahead_kb)};
  std::sort(expected.begin(), expected.end());
  REQUIRE(strategies::acting_groups(space, evaluator) == expected);
}

TEST_CASE("coordinate-descent does not try again around a new incumbent a choice that was hopeless before",
          "[strategies]") {
  // The bed's bad start, and read_ahead_kb 1024 5 % faster: after max_sectors_kb 1024 the
  // passes move to it. A trial under half the incumbent's lower bound stops as hopeless, one
  // sample (the tuner's hopeless stop on a real device).
  const auto space = loop_space();
  auto rate = [](const probe::Settings& c) {
    return bed_trial(c).median * (c.at(SettingId::read_ahead_kb).number() == 1024 ? 1.05 : 1.0);
  };
  const strategies::Evaluator::RequestRunner runner = [&](const probe::Settings& c, const strategies::TrialRequest& request) {
    const double median = rate(c);
    if (!request.incumbent_low || median >= 0.5 * *request.incumbent_low)
      return testing::ok_trial(median, 0.99 * median, 1.01 * median);
    auto trial = testing::ok_trial(median, median, median);
    trial.sampling_stop = "clearly slower";
    return trial;
  };
  strategies::Evaluator evaluator(space, runner, bed_trial(space.baseline()));
  (*strategies::make_strategy("coordinate-descent"))->run(space, evaluator);
  REQUIRE(evaluator.best().settings.at(SettingId::read_ahead_kb).number() == 1024);
  REQUIRE(evaluator.best().settings.at(SettingId::max_sectors_kb).number() >= 1024);
  // max_sectors_kb 4-32 read under half the baseline's rate: hopeless wherever tried, once.
  std::map<std::int64_t, int> tried;
  for (const auto& trial : evaluator.trials())
    if (const auto kb = trial.settings.at(SettingId::max_sectors_kb).number(); kb <= 32) {
      REQUIRE(strategies::stopped_hopeless(trial));
      ++tried[kb];
    }
  REQUIRE_FALSE(tried.empty());
  for (const auto& [kb, count] : tried) {
    INFO("max_sectors_kb " << kb);
    REQUIRE(count == 1);
  }
}

TEST_CASE("a pass walks a ladder out from the incumbent and stops a way after two clearly slower values",
          "[strategies]") {
  // The bed's bad start, read_ahead_kb 1024 5 % faster: around the final incumbent
  // (max_sectors_kb 1024, read_ahead_kb 1024) 512 and 256 read clearly slower, so 128 and
  // below are not tried there (each under half 1024's rate on this model).
  const auto space = loop_space();
  auto rate = [](const probe::Settings& c) {
    const double median = bed_trial(c).median * (c.at(SettingId::read_ahead_kb).number() == 1024 ? 1.05 : 1.0);
    return testing::ok_trial(median, 0.99 * median, 1.01 * median);
  };
  strategies::Evaluator evaluator(space, rate, rate(space.baseline()));
  (*strategies::make_strategy("coordinate-descent"))->run(space, evaluator);
  REQUIRE(evaluator.best().settings.at(SettingId::read_ahead_kb).number() == 1024);
  REQUIRE(evaluator.best().settings.at(SettingId::max_sectors_kb).number() == 1024);
  std::vector<std::int64_t> below;  // max_sectors_kb under 1024 tried with read_ahead_kb 1024
  for (const auto& trial : evaluator.trials())
    if (trial.settings.at(SettingId::read_ahead_kb).number() == 1024 &&
        trial.settings.at(SettingId::max_sectors_kb).number() < 1024)
      below.push_back(trial.settings.at(SettingId::max_sectors_kb).number());
  std::sort(below.begin(), below.end());
  REQUIRE(below == std::vector<std::int64_t>{256, 512});
}

TEST_CASE("the gain bar: the minimum gain over the incumbent less four times one sample's noise", "[strategies]") {
  // Incumbent lower bound 99 (the baseline +-1 %), 2 % minimum gain, noise 0.5 %: a first
  // sample under 99 x 1.02 x (1 - 4 x 0.5 %) = 98.96 cannot come from a configuration 2 % faster.
  const auto space = loop_space();
  std::vector<strategies::TrialRequest> asked;
  const strategies::Evaluator::RequestRunner runner = [&](const probe::Settings&, const strategies::TrialRequest& r) {
    asked.push_back(r);
    return testing::ok_trial(100.0, 99.0, 101.0);
  };
  strategies::EvaluatorOptions options;
  options.noise_floor = 0.005;
  strategies::Evaluator evaluator(space, runner, testing::ok_trial(100.0, 99.0, 101.0), options);
  REQUIRE(evaluator.gain_bar());
  REQUIRE(*evaluator.gain_bar() == Approx(99.0 * 1.02 * 0.98));
  // Asked of every new trial.
  (void)evaluator.evaluate(space.with_choice(space.baseline(), 0, 0) == space.baseline()
                               ? space.with_choice(space.baseline(), 0, 1)
                               : space.with_choice(space.baseline(), 0, 0));
  REQUIRE(asked.size() == 1);
  REQUIRE(asked.front().gain_bar);
  CHECK(*asked.front().gain_bar == Approx(99.0 * 1.02 * 0.98));
  // Noise of a quarter or more leaves no bar.
  options.noise_floor = 0.3;
  strategies::Evaluator noisy(space, runner, testing::ok_trial(100.0, 99.0, 101.0), options);
  REQUIRE_FALSE(noisy.gain_bar());
}
