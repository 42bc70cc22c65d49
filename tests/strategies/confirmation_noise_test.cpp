// SPDX-License-Identifier: GPL-2.0-or-later
// The confirmation round's own noise, and the gain threshold it judges by.
#include "strategies/confirmation.hpp"

#include "tests/support/seed_like_identify.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;
using strategies::TrialResult;
using strategies::TrialStatus;

namespace {

TrialResult measured(std::vector<double> samples) {
  TrialResult trial;
  trial.status = TrialStatus::ok;
  trial.samples = std::move(samples);
  strategies::summarize_samples(trial);
  return trial;
}

}  // namespace

TEST_CASE("round noise: the mean pairwise difference of each contender's samples over their median, pooled",
          "[strategies]") {
  // 100, 102, 98: pairs differ by 2, 4 and 2: 2.667 % of 100. Three 50s: 0. Pooled by pairs (3 each).
  CHECK(strategies::round_noise({measured({100, 102, 98}), measured({50, 50, 50})}) == Approx(0.013333).epsilon(1e-3));
  CHECK(strategies::round_noise({measured({100, 102, 98})}) == Approx(0.026667).epsilon(1e-3));
  // A contender with one sample, or one that failed, has no pair.
  auto failed = measured({10, 20});
  failed.status = TrialStatus::error;
  CHECK(strategies::round_noise({measured({100}), failed}) == 0.0);
}

TEST_CASE("round threshold: the noise floor gives way only to a smaller noise the round's own trials measured",
          "[strategies]") {
  const std::vector<TrialResult> quiet{measured({480, 481, 479}), measured({497, 498, 496})};  // 0.28 %
  CHECK(strategies::round_threshold(quiet, 0.02, 0.0635) == Approx(0.02));    // the floor was too high
  CHECK(strategies::round_threshold(quiet, 0.0, 0.0635) == Approx(0.00273).epsilon(0.01));
  const std::vector<TrialResult> noisy{measured({100, 110, 90}), measured({120, 108, 96})};   // 13.3 %, 14.8 %
  CHECK(strategies::round_threshold(noisy, 0.02, 0.04) == Approx(0.04));     // single samples: never above the floor
  const std::vector<TrialResult> alike{measured({10, 10, 10}), measured({11, 11, 11})};  // a simulated drive's
  CHECK(strategies::round_threshold(alike, 0.02, 0.03) == Approx(0.03));     // nothing measured: the floor holds
  CHECK(strategies::round_threshold(alike, 0.02, 0.0) == Approx(0.02));
}

TEST_CASE("confirmation round: a gain its interleaved trials separate counts, whatever one baseline trial read",
          "[strategies]") {
  // The newcomer's EMULATED ssd: the baseline's trials read 474.77, 479.96 and 520.46 MB/s
  // (noise floor 6.35 %); the round's units read within 0.8 % and put read_ahead_kb 8192 3.5 %
  // ahead, intervals clear. The run ended "too noisy" with the baseline kept.
  const auto base = testing::seed_baseline();
  TrialResult finalist = measured({497});
  finalist.id = 7;
  finalist.settings = base;
  finalist.settings[SettingId::readahead] = probe::SettingValue(std::int64_t{8192});
  int calls = 0;
  const strategies::ConfirmRunner runner = [&](const std::vector<probe::Settings>& contenders, int call) {
    ++calls;
    REQUIRE(contenders.size() == 2);
    return std::vector<TrialResult>{call == 0 ? measured({478, 482, 480}) : measured({479, 481, 483}),
                                    call == 0 ? measured({497, 499, 496}) : measured({500, 498, 497})};
  };
  const auto round = strategies::confirm(base, {finalist}, runner, 0.02, strategies::kMaxExtraConfirmRounds, true,
                                         0.05, {}, 0.0635);
  CHECK(calls == 2);
  CHECK(round.winner == 1);
  CHECK(round.results[1].id == 7);
  CHECK(round.gain_threshold == Approx(0.02));
  CHECK(round.noise == Approx(0.00424).epsilon(0.01));
  // The same figures judged by the noise floor keep the baseline: what the run did before.
  const auto by_floor = strategies::confirm(base, {finalist}, runner, 0.0635, strategies::kMaxExtraConfirmRounds, true,
                                            0.05, {}, 0.0635);
  CHECK(by_floor.winner == 0);
}
