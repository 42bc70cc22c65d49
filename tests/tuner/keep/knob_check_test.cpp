// SPDX-License-Identifier: GPL-2.0-or-later
// verify's check of one setting against a fake device: as expected, drifted, unreadable.
#include "tuner/keep/knob_check.hpp"

#include "tests/support/coupled_device.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;
using testing::num;

namespace {

// A report whose tune found read_ahead_kb 128 and changed it to 4096.
results::SavedReport readahead_report() {
  results::SavedReport report;
  report.file = "r.json";
  report.baseline = {{SettingId::read_ahead_kb, num(128)}, {SettingId::nr_requests, num(256)}};
  report.changes = {{SettingId::read_ahead_kb, num(4096)}};
  return report;
}

}  // namespace

TEST_CASE("verify's knob check: the live value as the report's is ok", "[tuner]") {
  testing::CoupledDevice device;
  device.state[SettingId::read_ahead_kb] = num(4096);
  const auto knob = tuner::check_knob(device, SettingId::read_ahead_kb, num(4096), readahead_report(), {});
  CHECK(knob.ok);
  CHECK(knob.expected == "4096");
  CHECK(knob.actual == "4096");
  CHECK(knob.cause.empty());
}

TEST_CASE("verify's knob check: a value back at the baseline's says so, and the evidence when there is some",
          "[tuner]") {
  testing::CoupledDevice device;  // read_ahead_kb 128: the value before the tune
  // No apply record read: what was looked at, never what happened (nothing was read to say so).
  const auto never = tuner::check_knob(device, SettingId::read_ahead_kb, num(4096), readahead_report(), {});
  CHECK_FALSE(never.ok);
  CHECK(never.cause == "back at the value its tune found (the baseline); no apply record read");
  CHECK(never.evidence.empty());
  tuner::DriftEvidence looked;
  looked.apply_journal = "/var/lib/disktune/x.apply.journal";
  looked.no_apply = "no apply journal at /var/lib/disktune/x.apply.journal";
  auto restored_report = readahead_report();
  restored_report.restored = true;  // the report's "restored": the tune's own record of its end
  const auto recorded = tuner::check_knob(device, SettingId::read_ahead_kb, num(4096), restored_report, looked);
  CHECK(recorded.cause == "back at the value its tune found (the baseline); no apply journal at /var/lib/disktune/x.apply.journal; "
                          "the report records that its tune put back what it found when it ended ('disktune apply' "
                          "sets the report's values)");
  device.state[SettingId::read_ahead_kb] = num(512);  // another value: the report's record explains nothing
  const auto other = tuner::check_knob(device, SettingId::read_ahead_kb, num(4096), restored_report, looked);
  CHECK(other.cause == "cause unknown; no apply journal at /var/lib/disktune/x.apply.journal");
  device.state[SettingId::read_ahead_kb] = num(128);
  tuner::DriftEvidence applied;
  applied.applied_at = "2026-12-03T09:00:00Z";
  const auto bare = tuner::check_knob(device, SettingId::read_ahead_kb, num(4096), readahead_report(), applied);
  CHECK_FALSE(bare.ok);
  CHECK(bare.actual == "128");
  CHECK_THAT(bare.cause, Catch::StartsWith("back at the value its tune found (the baseline); nothing shows what put it back"));
  CHECK(bare.evidence.empty());
  tuner::DriftEvidence restored;
  restored.restored_at = "2026-12-03T10:00:00Z";
  const auto after_restore = tuner::check_knob(device, SettingId::read_ahead_kb, num(4096), readahead_report(), restored);
  CHECK_FALSE(after_restore.ok);
  CHECK_THAT(after_restore.evidence, Catch::Contains("disktune restore") && Catch::Contains("2026-12-03T10:00:00Z"));
  CHECK_THAT(after_restore.cause, Catch::StartsWith("back at the value its tune found (the baseline); 'disktune restore'"));
}

TEST_CASE("verify's knob check: another value without evidence is 'cause unknown'; an unreadable one says why",
          "[tuner]") {
  testing::CoupledDevice device;
  device.state[SettingId::read_ahead_kb] = num(512);
  const auto other = tuner::check_knob(device, SettingId::read_ahead_kb, num(4096), readahead_report(), {});
  CHECK_FALSE(other.ok);
  CHECK(other.actual == "512");
  CHECK_THAT(other.cause, Catch::StartsWith("cause unknown"));
  device.state.erase(SettingId::read_ahead_kb);
  const auto unreadable = tuner::check_knob(device, SettingId::read_ahead_kb, num(4096), readahead_report(), {});
  CHECK_FALSE(unreadable.ok);
  CHECK(unreadable.actual.empty());
  CHECK_THAT(unreadable.cause, Catch::StartsWith("cannot be read: "));
}
