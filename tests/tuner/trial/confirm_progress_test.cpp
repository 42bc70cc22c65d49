// SPDX-License-Identifier: GPL-2.0-or-later
// ConfirmUnit: its progress line.
#include "tuner/trial/confirm_progress.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;

namespace {
bench::Objective seq_read() { return bench::parse_objective("seq-read", "").value(); }
}  // namespace

TEST_CASE("a confirmation unit prints in the search's style", "[tuner]") {
  const tuner::ConfirmUnit unit{2, 6, 1, 4, strategies::TrialStatus::ok, 14.8412, ""};
  const probe::Settings original{{SettingId::using_dma, probe::SettingValue(std::int64_t{0})}};
  const probe::Settings contender{{SettingId::using_dma, probe::SettingValue(std::int64_t{1})}};
  REQUIRE(tuner::confirm_progress_line(unit, contender, original, "SIMULATED", seq_read()) ==
          "  [SIMULATED] confirm round 2/6, finalist 1/3: ok     14.84 MB/s  using_dma=1");
  tuner::ConfirmUnit failed = unit;
  failed.contender = 0;
  failed.status = strategies::TrialStatus::unstable;
  failed.value = 0.0;
  failed.detail = "settings changed: x";
  REQUIRE(tuner::confirm_progress_line(failed, original, original, "", seq_read()) ==
          "  confirm round 2/6, baseline: unstable    (original settings)  (settings changed: x)");
}
