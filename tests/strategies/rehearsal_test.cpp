// SPDX-License-Identifier: GPL-2.0-or-later
// The rehearsal: a search run again on predicted trials counts what the real search still runs.
#include "strategies/rehearsal.hpp"

#include "bench/adaptive.hpp"
#include "strategies/coarse_screening.hpp"
#include "strategies/coordinate_descent.hpp"
#include "strategies/trial.hpp"

#include "tests/support/seed_like_identify.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <optional>

using namespace disktune;
using probe::SettingId;
using strategies::TrialResult;
using strategies::TrialStatus;

namespace {

// A drive whose knobs act apart from each other (their effects multiply), read without noise:
// what the rehearsal's predictions assume, so its count must be the search's own.
TrialResult separable_trial(const probe::Settings& config) {
  static const std::map<std::int64_t, double> io{{0, 1.0}, {1, 1.2}, {3, 1.5}};
  const auto multcount = static_cast<double>(config.at(SettingId::multcount).number());
  const double mult = 1.0 + 0.1 * std::log2(multcount + 1.0);
  TrialResult trial;
  trial.status = TrialStatus::ok;
  trial.median = 3.0 * mult * io.at(config.at(SettingId::io_support).number());
  trial.samples = {trial.median, trial.median, trial.median};
  trial.ci_low = trial.ci_high = trial.median;
  trial.measured_s = 1.0;
  return trial;
}

// A separable_trial measured in `seconds` [s] by its multcount value, and its baseline in 9 s
// (3-10 samples for the noise outlast a search trial's).
struct TimedDrive {
  std::map<std::int64_t, double> seconds;
  TrialResult operator()(const probe::Settings& config) const {
    auto trial = separable_trial(config);
    trial.measured_s = seconds.at(config.at(SettingId::multcount).number());
    return trial;
  }
  TrialResult baseline(const strategies::SearchSpace& space) const {
    auto trial = separable_trial(space.baseline());
    trial.measured_s = 9.0;
    return trial;
  }
};

// Measures through `evaluator` each of group g's values that `drive` has a time for.
void measure_timed(const strategies::SearchSpace& space, std::size_t g, const TimedDrive& drive,
                   strategies::Evaluator& evaluator) {
  for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
    const auto config = space.with_choice(space.baseline(), g, c);
    if (drive.seconds.count(config.at(SettingId::multcount).number())) REQUIRE(evaluator.evaluate(config));
  }
}

strategies::SearchSpace space_of(std::vector<SettingId> only) {
  strategies::SpaceOptions options;
  options.only = std::move(only);
  return strategies::build_space(testing::seed_like_identify(), testing::legacy_capabilities(),
                                 testing::seed_baseline(), options);
}

}  // namespace

TEST_CASE("rehearsal: on a drive whose knobs act apart, the count left is the search's own at every trial",
          "[strategies]") {
  const auto space = space_of({SettingId::multcount, SettingId::io_support});
  strategies::Evaluator whole(space, separable_trial, separable_trial(space.baseline()));
  strategies::CoordinateDescent search;
  search.run(space, whole);
  const std::size_t total = whole.trials().size();
  REQUIRE(total > 4);
  for (std::size_t done = 0; done <= total; ++done) {
    // The first `done` trials of the search, measured as it measured them.
    strategies::Evaluator partial(space, separable_trial, separable_trial(space.baseline()));
    for (std::size_t i = 0; i < done; ++i) REQUIRE(partial.evaluate(whole.trials()[i].settings));
    strategies::CoordinateDescent rehearsed;
    CAPTURE(done, total);
    const std::size_t left = strategies::rehearse(rehearsed, space, partial, 1000).trials;
    // Before the screening has measured a knob, its effect reads as none: fewer trials.
    if (done < strategies::coarse_screening_trials(space))
      REQUIRE(left <= total - done);
    else
      REQUIRE(left == total - done);
    // With no predicted gain holding, the search stops sooner or as soon.
    strategies::CoordinateDescent refuted;
    const auto none = strategies::rehearse(refuted, space, partial, 1000, false);
    REQUIRE(none.trials <= total - done);
    // Each predicted trial takes its nearest measured one's time: here every trial's 1 s.
    REQUIRE(none.measured_s == Approx(static_cast<double>(none.trials)));
  }
}

TEST_CASE("rehearsal: the budget bounds it as it bounds the search", "[strategies]") {
  const auto space = space_of({SettingId::multcount, SettingId::io_support});
  strategies::EvaluatorOptions options;
  options.max_trials = 5;
  strategies::Evaluator evaluator(space, separable_trial, separable_trial(space.baseline()), options);
  REQUIRE(evaluator.evaluate(space.with_choice(space.baseline(), 0, 1)));
  strategies::CoordinateDescent rehearsed;
  REQUIRE(strategies::rehearse(rehearsed, space, evaluator, 1000).trials == 4);
  // A predicted trial takes its nearest measured configuration's measurement time: the
  // baseline's 1 s and the measured single change's 2.5 s (the trial nearest every move left).
  strategies::CoordinateDescent timed;
  strategies::Evaluator slow(space, [](const probe::Settings& config) {
    auto trial = separable_trial(config);
    trial.measured_s = 2.5;
    return trial;
  }, separable_trial(space.baseline()), options);
  REQUIRE(slow.evaluate(space.with_choice(space.baseline(), 0, 1)));
  const auto left = strategies::rehearse(timed, space, slow, 1000);
  REQUIRE(left.trials == 4);
  REQUIRE(left.measured_s > 4.0);
  REQUIRE(left.measured_s <= 4 * 2.5);
  // The cap bounds a rehearsal whatever the budget.
  strategies::CoordinateDescent capped;
  REQUIRE(strategies::rehearse(capped, space, evaluator, 2).trials == 2);
}

TEST_CASE("rehearsal: a configuration is predicted from its nearest measured one and the single changes' effects",
          "[strategies]") {
  const auto space = space_of({SettingId::multcount, SettingId::io_support});
  strategies::Evaluator evaluator(space, separable_trial, separable_trial(space.baseline()));
  const auto& groups = space.groups();
  REQUIRE(groups.size() == 2);
  const auto choice_of = [&](std::size_t g, SettingId id, std::int64_t value) {
    for (std::size_t c = 0; c < groups[g].choices.size(); ++c)
      if (groups[g].choices[c].at(id).number() == value) return c;
    FAIL("no choice " << value);
    return std::size_t{0};
  };
  const std::size_t g_mult = groups[0].settings.front() == SettingId::multcount ? 0 : 1;
  const std::size_t g_io = 1 - g_mult;
  const auto io3 = space.with_choice(space.baseline(), g_io, choice_of(g_io, SettingId::io_support, 3));
  const auto mult16 = space.with_choice(space.baseline(), g_mult, choice_of(g_mult, SettingId::multcount, 16));
  REQUIRE(evaluator.evaluate(io3));
  REQUIRE(evaluator.evaluate(mult16));
  // Both changes together: the nearest measured one (either single change) times the other's effect.
  const auto both = space.with_choice(io3, g_mult, choice_of(g_mult, SettingId::multcount, 16));
  const auto predicted = strategies::predicted_trial(space, evaluator, both);
  REQUIRE(predicted.status == TrialStatus::ok);
  REQUIRE(predicted.settings == both);
  REQUIRE(predicted.median == Approx(separable_trial(both).median));
  REQUIRE(predicted.ci_low == Approx(separable_trial(both).median));
  REQUIRE(predicted.measured_s == 1.0);
  // With no gain holding it reads no faster than its neighbour (the latest of the nearest).
  REQUIRE(strategies::predicted_trial(space, evaluator, both, false).median ==
          Approx(evaluator.measured(mult16)->median));
  // An unmeasured ladder value takes the nearest measured value's effect.
  const double at16 = strategies::single_change_ratio(space, evaluator, g_mult, choice_of(g_mult, SettingId::multcount, 16));
  REQUIRE(at16 == Approx(separable_trial(mult16).median / separable_trial(space.baseline()).median));
  const auto ladder = strategies::ladder_of(groups[g_mult]);
  REQUIRE(ladder.size() >= 3);
  REQUIRE(strategies::single_change_ratio(space, evaluator, g_mult, ladder[ladder.size() - 2]) == Approx(at16));
}

// On the EMULATED hdd read_ahead_kb 0 read 10 MB/s in one 4 s sample (stopped as clearly
// slower); the rehearsal gave read_ahead_kb 16-64, predicted from it, 4 s each where they took
// 1.4: the estimate ran twice the time left for 7 trials.
TEST_CASE("rehearsal: a prediction from a trial stopped as clearly slower takes another neighbour's time",
          "[strategies]") {
  const auto space = space_of({SettingId::multcount, SettingId::io_support});
  const auto& groups = space.groups();
  const std::size_t g_mult = groups[0].settings.front() == SettingId::multcount ? 0 : 1;
  const std::size_t g_io = 1 - g_mult;
  const auto slow = [](const probe::Settings& config) {
    auto trial = separable_trial(config);
    if (config.at(SettingId::io_support).number() != 3) return trial;
    trial.median /= 10.0;  // one sample, far below the baseline: the hopeless stop
    trial.samples = {trial.median};
    trial.sampling_stop = bench::to_string(bench::SamplingStop::clearly_slower);
    trial.measured_s = 4.0;
    return trial;
  };
  strategies::Evaluator evaluator(space, slow, separable_trial(space.baseline()));
  std::optional<std::size_t> io3;
  for (std::size_t c = 0; c < groups[g_io].choices.size(); ++c)
    if (groups[g_io].choices[c].at(SettingId::io_support).number() == 3) io3 = c;
  REQUIRE(io3);
  const auto hopeless = space.with_choice(space.baseline(), g_io, *io3);
  REQUIRE(evaluator.evaluate(hopeless));
  REQUIRE(strategies::stopped_hopeless(*evaluator.measured(hopeless)));
  // Nearest to the hopeless trial (one group apart, the baseline two): its figure, the baseline's time.
  const auto beside = space.with_choice(hopeless, g_mult, groups[g_mult].choices.size() - 1);
  REQUIRE(beside != hopeless);
  const auto predicted = strategies::predicted_trial(space, evaluator, beside);
  REQUIRE(predicted.median < separable_trial(space.baseline()).median / 2.0);
  REQUIRE(predicted.measured_s == 1.0);
}

TEST_CASE("rehearsal: with one knob an unmeasured value takes the mean time of the values measured, not the latest's",
          "[strategies]") {
  // The adversary's --only run: every unmeasured value is one group from every measured one,
  // the tie went to the latest trial, and the time left swung 42 s -> 1 m 18 s -> 26 s with
  // each trial's own time. multcount 2 and 8 measure in 1 s, 4 in 4 s; the baseline
  // (multcount 0, its 3-10 samples for the noise) in 9 s is left out: search trials are as near.
  const auto space = space_of({SettingId::multcount});
  const auto& group = space.groups().front();
  const TimedDrive drive{{{2, 1.0}, {4, 4.0}, {8, 1.0}}};
  strategies::Evaluator evaluator(space, drive, drive.baseline(space));
  measure_timed(space, 0, drive, evaluator);
  std::optional<probe::Settings> unmeasured;
  for (std::size_t c = 0; c < group.choices.size(); ++c) {
    const auto config = space.with_choice(space.baseline(), 0, c);
    if (!drive.seconds.count(config.at(SettingId::multcount).number()) && config != space.baseline()) unmeasured = config;
  }
  REQUIRE(unmeasured);
  REQUIRE(evaluator.trials().size() == 3);
  REQUIRE(strategies::predicted_trial(space, evaluator, *unmeasured).measured_s == Approx(2.0));
}

TEST_CASE("rehearsal: a knob's first value takes the search trials' mean time, not the baseline's noise-sampled one",
          "[strategies]") {
  // The EMULATED ssd's --max-trials 10 run read 117 s left where 49 s were: every knob's first
  // value took the baseline's time, 10 samples for the noise, where a search trial took 2-7 s.
  const auto space = space_of({SettingId::multcount, SettingId::io_support});
  const auto& groups = space.groups();
  const std::size_t g_mult = groups[0].settings.front() == SettingId::multcount ? 0 : 1;
  const std::size_t g_io = 1 - g_mult;
  const TimedDrive drive{{{2, 1.0}, {8, 2.0}}};
  strategies::Evaluator evaluator(space, drive, drive.baseline(space));
  measure_timed(space, g_mult, drive, evaluator);
  std::optional<probe::Settings> io_first;
  for (std::size_t c = 0; c < groups[g_io].choices.size() && !io_first; ++c)
    if (const auto config = space.with_choice(space.baseline(), g_io, c); config != space.baseline()) io_first = config;
  REQUIRE(evaluator.trials().size() == 2);
  REQUIRE(io_first);
  // One group from the baseline, two from each search trial: their mean, 1.5 s, not 9.
  REQUIRE(strategies::predicted_trial(space, evaluator, *io_first).measured_s == Approx(1.5));
}
