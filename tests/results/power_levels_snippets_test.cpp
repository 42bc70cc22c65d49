// SPDX-License-Identifier: GPL-2.0-or-later
// APM (-B) and AAM (-M) in the JSON report, the table, boot.local, hdparm.conf, udev, TuneD.
#include "results/boot_local.hpp"
#include "results/codec/settings_codec.hpp"
#include "results/hdparm_conf.hpp"
#include "results/json_report.hpp"
#include "results/table.hpp"
#include "results/tuned_profile.hpp"
#include "results/udev_rules.hpp"
#include "tests/support/sample_reports.hpp"
#include "tests/support/setting_values.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;
using testing::num;

namespace {

// The loop run's search on a SATA disk (/dev/sda): Debian's hdparm applies hdparm.conf to
// sd[a-z] only, and APM and AAM are drive settings.
results::Report power_report(const probe::Settings& changes) {
  auto report = test_support::loop_report();
  report.device = test_support::by_id_report().device;
  report.winner.settings = probe::with_changes(report.baseline.trial.settings, changes);
  report.winner.changes = changes;
  return report;
}

void require_contains(const std::string& text, const std::string& part) {
  INFO(text);
  REQUIRE(text.find(part) != std::string::npos);
}

}  // namespace

TEST_CASE("apm and aam survive the settings codec", "[results]") {
  const probe::Settings all{{SettingId::apm, num(probe::kApmDisabled)}, {SettingId::aam, num(128)}};
  REQUIRE(results::settings_from_json(results::settings_to_json(all)).value() == all);
}

TEST_CASE("every snippet form sets APM with -B and AAM with -M", "[results]") {
  const auto report = power_report({{SettingId::apm, num(254)}, {SettingId::aam, num(128)}});
  require_contains(results::BootLocalEmitter().render(report), "-B254 -M128");
  require_contains(results::UdevRulesEmitter().render(report), "-q -B254 -q -M128");
  const auto conf = results::HdparmConfEmitter().render(report);
  require_contains(conf, "\tapm = 254\n");
  require_contains(conf, "\tacoustic_management = 128\n");
  require_contains(results::JsonEmitter().render(report), "\"apm\": 254");
  require_contains(results::TableEmitter().render(report), "-B254");
  const auto tuned = results::TunedProfileEmitter().render(report);
  require_contains(tuned, "\napm=254\n");
  require_contains(tuned, "/etc/hdparm.conf: hdparm -M128\n");  // TuneD has no AAM option
}

TEST_CASE("disabling is written as hdparm spells it: -B255 and -M0", "[results]") {
  const auto report = power_report({{SettingId::apm, num(probe::kApmDisabled)}, {SettingId::aam, num(probe::kAamDisabled)}});
  require_contains(results::BootLocalEmitter().render(report), "-B255 -M0");
  const auto conf = results::HdparmConfEmitter().render(report);
  require_contains(conf, "\tapm = 255\n");
  require_contains(conf, "\tacoustic_management = 0\n");
}
