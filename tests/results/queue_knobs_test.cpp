// SPDX-License-Identifier: GPL-2.0-or-later
// The queue knobs of current kernels (nomerges, rq_affinity, scheduler tunables) in the
// settings codec, the JSON report, the table and every snippet form.
#include "results/boot_local.hpp"
#include "results/codec/settings_codec.hpp"
#include "results/hdparm_conf.hpp"
#include "results/json_report.hpp"
#include "results/table.hpp"
#include "results/udev_rules.hpp"
#include "tests/support/sample_reports.hpp"
#include "tests/support/setting_values.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;
using testing::name;
using testing::num;

namespace {

// The loop report's winner moved to bfq with its low_latency off, merges off, completion on
// the submitting CPU.
const probe::Settings kChanges{{SettingId::scheduler, name("bfq")},
                               {SettingId::nomerges, num(2)},
                               {SettingId::rq_affinity, num(2)},
                               {SettingId::low_latency, num(0)},
                               {SettingId::slice_idle, num(4)}};

results::Report knob_report() {
  auto report = test_support::loop_report();
  report.winner.settings = probe::with_changes(report.baseline.trial.settings, kChanges);
  report.winner.changes = kChanges;
  return report;
}

std::size_t position(const std::string& text, const std::string& part) {
  const auto at = text.find(part);
  INFO(text);
  REQUIRE(at != std::string::npos);
  return at;
}

}  // namespace

TEST_CASE("every new knob survives the settings codec and parse_value round trip", "[results]") {
  probe::Settings all;
  for (const auto id : {SettingId::nomerges, SettingId::rq_affinity})
    for (const std::int64_t v : {0, 1, 2}) {
      all[id] = num(v);
      REQUIRE(probe::parse_value(id, probe::format_value(id, num(v))).value() == num(v));
    }
  for (const auto id : probe::scheduler_tunable_settings()) {
    all[id] = probe::tunable_default(id);
    REQUIRE(probe::setting_from_name(probe::setting_name(id)) == id);
  }
  const auto decoded = results::settings_from_json(results::settings_to_json(all));
  REQUIRE(decoded.has_value());
  REQUIRE(*decoded == all);
}

TEST_CASE("a setting value that is no whole number or name is refused naming the value as written", "[results]") {
  for (const char* text : {R"({"read_ahead_kb": 1e30})", R"({"read_ahead_kb": 128.5})", R"({"read_ahead_kb": null})"}) {
    const auto decoded = results::settings_from_json(boost::json::parse(text));
    REQUIRE_FALSE(decoded.has_value());
    const std::string value = boost::json::serialize(boost::json::parse(text).at("read_ahead_kb"));
    CHECK(decoded.error().message().find("value " + value + " for read_ahead_kb is not a whole number or a name") !=
          std::string::npos);
  }
}

TEST_CASE("boot.local and udev write the queue knobs after the scheduler, tunables under iosched/", "[results]") {
  const auto boot = results::BootLocalEmitter().render(knob_report());
  const auto scheduler = position(boot, "echo 'bfq' > /sys/block/loop0/queue/scheduler");
  REQUIRE(position(boot, "echo 2 > /sys/block/loop0/queue/nomerges\n") > scheduler);
  REQUIRE(position(boot, "echo 2 > /sys/block/loop0/queue/rq_affinity\n") > scheduler);
  REQUIRE(position(boot, "echo 0 > /sys/block/loop0/queue/iosched/low_latency\n") > scheduler);
  REQUIRE(position(boot, "echo 4 > /sys/block/loop0/queue/iosched/slice_idle\n") > scheduler);
  const auto udev = results::UdevRulesEmitter().render(knob_report());
  REQUIRE(position(udev, "ATTR{queue/iosched/low_latency}=\"0\"") > position(udev, "ATTR{queue/scheduler}=\"bfq\""));
  REQUIRE(position(udev, "ATTR{queue/nomerges}=\"2\"") > 0);
  const auto conf = results::HdparmConfEmitter().render(knob_report());
  REQUIRE(position(conf, "#   low_latency = 0") > position(conf, "#   scheduler = bfq"));
  REQUIRE(position(conf, "#   rq_affinity = 2") > 0);
}

TEST_CASE("the JSON report and the table name the new knobs", "[results]") {
  const auto json = results::JsonEmitter().render(knob_report());
  REQUIRE(position(json, "\"low_latency\": 0") > 0);
  REQUIRE(position(json, "\"nomerges\": 2") > 0);
  const auto table = results::TableEmitter().render(knob_report());
  REQUIRE(position(table, "low_latency=0") > 0);
  REQUIRE(position(table, "rq_affinity=2") > 0);
}
