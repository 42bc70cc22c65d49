// SPDX-License-Identifier: GPL-2.0-or-later
// Which settings acted (tuner::acting_settings): one rule for every objective and sampling stop.
#include "tuner/run/pipeline.hpp"

#include "tests/support/ok_trial.hpp"
#include "tests/support/sim_fixture.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace disktune;
using probe::SettingId;
using strategies::TrialResult;

namespace {

// One kept sample, no interval of its own, stopped as `stop` says.
TrialResult one_sample(double value, const std::string& stop) {
  auto trial = testing::ok_trial(value, value, value);
  trial.sampling_stop = stop;
  return trial;
}

}  // namespace

TEST_CASE("acting: a one-sample drop acts by one rule, whatever stopped its sampling", "[tuner]") {
  // The baseline 178 (+-1.1 %): nr_requests 4 read 103 in one sample (a rand-read-iops trial
  // the hopeless stop ended, 0.58x: less than the screening's factor of two); read_ahead_kb 64
  // read 173, 2.8 % below, in one sample (a seq-read trial under the gain bar): within the
  // 4.5 % a single sample's noise allows. The first acted, the second did not, either stop.
  const auto stop = GENERATE(std::string("clearly slower"), std::string("no gain"));
  CAPTURE(stop);
  const auto base = testing::settings_of({{"nr_requests", "256"}, {"read_ahead_kb", "128"}});
  const strategies::Group nr{{SettingId::nr_requests},
                             {testing::settings_of({{"nr_requests", "256"}}), testing::settings_of({{"nr_requests", "4"}})}};
  const strategies::Group ra{{SettingId::read_ahead_kb},
                             {testing::settings_of({{"read_ahead_kb", "128"}}), testing::settings_of({{"read_ahead_kb", "64"}})}};
  const strategies::SearchSpace space(base, {nr, ra}, {}, {});
  auto baseline = testing::ok_trial(178.0, 176.0, 180.0);
  baseline.samples = {176.0, 178.0, 180.0};
  baseline.spread_pct = 50.0 * 4.0 / 178.0;
  auto runner = [&](const probe::Settings& config) {
    return config == base ? baseline : one_sample(config.at(SettingId::nr_requests).number() == 4 ? 103.0 : 173.0, stop);
  };
  strategies::EvaluatorOptions options;
  options.noise_floor = 0.005;
  strategies::Evaluator evaluator(space, runner, baseline, options);
  REQUIRE(evaluator.evaluate(space.with_choice(base, 0, 1)));
  REQUIRE(evaluator.evaluate(space.with_choice(base, 1, 1)));
  CHECK(tuner::acting_settings(space, evaluator) == std::vector<std::string>{"nr_requests"});
}

TEST_CASE("acting: a setting acts when a trial around a later incumbent differs from it in that setting alone",
          "[tuner]") {
  // max_sectors_kb 1024 won; read_ahead_kb 64 tried around it read half as fast (3 samples,
  // intervals apart): read_ahead_kb acted, though its single change from the baseline tied.
  const auto base = testing::settings_of({{"max_sectors_kb", "128"}, {"read_ahead_kb", "128"}});
  auto config = [&](const char* msk, const char* ra) {
    return testing::settings_of({{"max_sectors_kb", msk}, {"read_ahead_kb", ra}});
  };
  const strategies::Group msk{{SettingId::max_sectors_kb},
                              {testing::settings_of({{"max_sectors_kb", "128"}}), testing::settings_of({{"max_sectors_kb", "1024"}})}};
  const strategies::Group ra{{SettingId::read_ahead_kb},
                             {testing::settings_of({{"read_ahead_kb", "128"}}), testing::settings_of({{"read_ahead_kb", "64"}})}};
  const strategies::SearchSpace space(base, {msk, ra}, {}, {});
  auto runner = [&](const probe::Settings& c) {
    double rate = c.at(SettingId::max_sectors_kb).number() == 1024 ? 200.0 : 100.0;
    if (c == config("1024", "64")) rate = 100.0;
    return testing::ok_trial(rate, 0.99 * rate, 1.01 * rate);
  };
  strategies::Evaluator evaluator(space, runner, runner(base));
  REQUIRE(evaluator.evaluate(config("128", "64")));
  REQUIRE(evaluator.evaluate(config("1024", "128")));
  REQUIRE(evaluator.evaluate(config("1024", "64")));
  CHECK(tuner::acting_settings(space, evaluator) == std::vector<std::string>{"max_sectors_kb", "read_ahead_kb"});
}
