// SPDX-License-Identifier: GPL-2.0-or-later
// The winner rule's order between tied candidates: risk, changes, as found, the kernel's default, never measurement order.
#include "probe/kernel_defaults.hpp"
#include "strategies/confirmation.hpp"
#include "strategies/winner_rule.hpp"

#include "tests/support/seed_like_identify.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;
using strategies::TrialResult;

namespace {

SettingValue num(std::int64_t n) { return SettingValue(n); }

// An ok trial of `settings` with median `median` and an interval of ±0.5 %.
TrialResult trial(int id, probe::Settings settings, double median) {
  TrialResult t;
  t.id = id;
  t.status = strategies::TrialStatus::ok;
  t.settings = std::move(settings);
  t.samples = {median, median, median};
  t.median = median;
  t.ci_low = median * 0.995;
  t.ci_high = median * 1.005;
  return t;
}

probe::Settings with(probe::Settings base, const probe::Settings& changes) { return probe::with_changes(std::move(base), changes); }

}  // namespace

// A bad start (read_ahead_kb 8192) on a throttled loop device: 32 and 128 read 0.15 % apart,
// not separated, both one change from the start; 32, measured first, was the answer.
TEST_CASE("a tie between finalists goes to the kernel's default, whichever was measured first", "[strategies]") {
  const probe::Settings base{{SettingId::read_ahead_kb, num(8192)}, {SettingId::nr_requests, num(64)}};
  const auto defaults = probe::kernel_defaults(0);  // a loop device states no optimal I/O size
  const TrialResult baseline = trial(0, base, 10.0);
  const TrialResult ra32 = trial(1, with(base, {{SettingId::read_ahead_kb, num(32)}}), 50.0);
  const TrialResult ra128 = trial(2, with(base, {{SettingId::read_ahead_kb, num(128)}}), 50.0);
  // Either one a hair ahead, either one measured first.
  for (const double ahead : {1.0015, 1.0 / 1.0015}) {
    TrialResult first = ra32, second = ra128;
    first.median *= ahead;
    for (const bool swapped : {false, true}) {
      std::vector<TrialResult> candidates{first, second};
      if (swapped) std::swap(candidates[0], candidates[1]);
      CAPTURE(ahead, swapped);
      const TrialResult* pick = strategies::pick_winner(baseline, candidates, base, 0.02, 0.05, defaults);
      REQUIRE(pick != nullptr);
      CHECK(pick->settings.at(SettingId::read_ahead_kb) == num(128));
      const auto tie = strategies::tie_break(baseline, candidates, *pick, base, 0.02, 0.05, defaults);
      if (pick->median < std::max(candidates[0].median, candidates[1].median)) {
        REQUIRE(tie);
        CHECK(tie->rule == "more settings at the kernel's default (1 against 0): the kernel's default for this device read_ahead_kb=128");
      } else {
        CHECK_FALSE(tie);
      }
    }
  }
  // The confirmation round decides by the same order, whatever order the finalists come in.
  for (const bool swapped : {false, true}) {
    std::vector<TrialResult> finals{ra32, ra128};
    finals[0].median *= 1.0015;  // 32 a hair ahead
    if (swapped) std::swap(finals[0], finals[1]);
    auto runner = [&](const std::vector<probe::Settings>& contenders, int) {
      std::vector<TrialResult> results;
      for (const auto& c : contenders) {
        if (c == base) results.push_back(baseline);
        else results.push_back(c == ra32.settings ? finals[swapped ? 1 : 0] : finals[swapped ? 0 : 1]);
      }
      return results;
    };
    const auto round = strategies::confirm(base, finals, runner, 0.02, 0, false, 0.05, defaults);
    CHECK(round.results[round.winner].settings.at(SettingId::read_ahead_kb) == num(128));
  }
}

TEST_CASE("a tie goes to the candidate that keeps more settings as found, before the kernel's default", "[strategies]") {
  // mq-deadline with tunables away from their defaults: a switch to none takes them away
  // (one change, but two fewer settings as found), a read-ahead change keeps them.
  const probe::Settings base{{SettingId::scheduler, SettingValue(std::string("mq-deadline"))},
                             {SettingId::fifo_batch, num(8)},
                             {SettingId::read_expire, num(250)},
                             {SettingId::read_ahead_kb, num(8192)}};
  // A 4 MiB optimal I/O size: the kernel's read-ahead default is 8192 KiB, the value as found,
  // so the switch keeps one setting at its default and the read-ahead change none.
  const auto defaults = probe::kernel_defaults(4 * 1024 * 1024);
  REQUIRE(defaults.at(SettingId::read_ahead_kb) == num(8192));
  const TrialResult baseline = trial(0, base, 10.0);
  const TrialResult none = trial(1, with(base, {{SettingId::scheduler, SettingValue(std::string("none"))}}), 20.05);
  const TrialResult ra4096 = trial(2, with(base, {{SettingId::read_ahead_kb, num(4096)}}), 20.0);
  REQUIRE(strategies::changes_from(base, none.settings).size() == 1);
  REQUIRE(strategies::settings_equal_to(base, none.settings) == 1);
  REQUIRE(strategies::settings_equal_to(base, ra4096.settings) == 3);
  REQUIRE(strategies::settings_equal_to(defaults, none.settings) == 1);
  REQUIRE(strategies::settings_equal_to(defaults, ra4096.settings) == 0);
  for (const bool swapped : {false, true}) {
    std::vector<TrialResult> candidates{none, ra4096};
    if (swapped) std::swap(candidates[0], candidates[1]);
    const TrialResult* pick = strategies::pick_winner(baseline, candidates, base, 0.02, 0.05, defaults);
    REQUIRE(pick != nullptr);
    CHECK(pick->id == 2);
    CHECK(strategies::tie_break(baseline, candidates, *pick, base, 0.02, 0.05, defaults)->rule ==
          "more settings as found (3 against 1)");
  }
}

TEST_CASE("fewer risky changes, then fewer changes, still come before as found and the kernel's default", "[strategies]") {
  const auto base = testing::seed_baseline();  // readahead 8 sectors
  const auto defaults = probe::kernel_defaults(0);  // readahead 256 sectors
  const TrialResult baseline = trial(0, base, 10.0);
  // At the kernel's read-ahead default, but with a risky change: loses to two safe changes.
  const TrialResult risky = trial(1, with(base, {{SettingId::readahead, num(256)}, {SettingId::io_support, num(1)}}), 12.0);
  const TrialResult safe = trial(2, with(base, {{SettingId::readahead, num(512)}, {SettingId::apm, num(254)}}), 12.01);
  std::vector<TrialResult> candidates{risky, safe};
  CHECK(strategies::pick_winner(baseline, candidates, base, 0.02, 0.05, defaults)->id == 2);
  // At the default but two changes: loses to one change away from it.
  const TrialResult two = trial(3, with(base, {{SettingId::readahead, num(256)}, {SettingId::apm, num(254)}}), 12.02);
  const TrialResult one = trial(4, with(base, {{SettingId::readahead, num(1024)}}), 12.0);
  candidates = {two, one};
  const TrialResult* pick = strategies::pick_winner(baseline, candidates, base, 0.02, 0.05, defaults);
  CHECK(pick->id == 4);
  CHECK(strategies::tie_break(baseline, candidates, *pick, base, 0.02, 0.05, defaults)->rule ==
        "fewer changes (1 against 2)");
}

TEST_CASE("candidates level in the whole order go by separation, then the settings' fixed order", "[strategies]") {
  const probe::Settings base{{SettingId::read_ahead_kb, num(8192)}};
  const auto defaults = probe::kernel_defaults(0);
  const TrialResult baseline = trial(0, base, 10.0);
  // 256 and 512: neither as found nor at the default, 0.15 % apart: not separated.
  const TrialResult ra512 = trial(1, with(base, {{SettingId::read_ahead_kb, num(512)}}), 20.03);
  const TrialResult ra256 = trial(2, with(base, {{SettingId::read_ahead_kb, num(256)}}), 20.0);
  for (const bool swapped : {false, true}) {
    std::vector<TrialResult> candidates{ra512, ra256};
    if (swapped) std::swap(candidates[0], candidates[1]);
    const TrialResult* pick = strategies::pick_winner(baseline, candidates, base, 0.02, 0.05, defaults);
    CHECK(pick->id == 2);
    CHECK(strategies::tie_break(baseline, candidates, *pick, base, 0.02, 0.05, defaults)->rule ==
          "the settings' fixed order (read_ahead_kb 256 before 512)");
  }
  // Both tied with the fastest, but 1024 separated from 256: the median decides between them.
  TrialResult fastest = trial(3, with(base, {{SettingId::read_ahead_kb, num(2048)}}), 20.5);
  fastest.ci_low = 19.0;  // a wide interval: tied with both
  const TrialResult ra1024 = trial(4, with(base, {{SettingId::read_ahead_kb, num(1024)}}), 20.45);
  const TrialResult slow256 = trial(5, with(base, {{SettingId::read_ahead_kb, num(256)}}), 19.9);
  std::vector<TrialResult> three{fastest, ra1024, slow256};
  REQUIRE(strategies::significantly_faster(ra1024, slow256, 0.02));
  REQUIRE_FALSE(strategies::significantly_faster(fastest, slow256, 0.02));
  CHECK(strategies::pick_winner(baseline, three, base, 0.02, 0.05, defaults)->id == 4);
}
