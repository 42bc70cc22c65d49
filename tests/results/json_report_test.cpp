// SPDX-License-Identifier: GPL-2.0-or-later
// JSON report: golden file, every contract key with its JSON kind, changes, pretty printer.
#include "results/json_report.hpp"

#include "tests/support/golden.hpp"
#include "tests/support/sample_reports.hpp"

#include <catch2/catch.hpp>

#include <boost/json/parse.hpp>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

using namespace disktune;
namespace json = boost::json;
using json::kind;

namespace {

// A key and the JSON kinds it may have (two when it may be null).
using KeySpec = std::pair<const char*, std::vector<kind>>;
const std::vector<kind> kNumber{kind::int64, kind::uint64};
const std::vector<kind> kDouble{kind::double_};
const std::vector<kind> kString{kind::string};
const std::vector<kind> kBool{kind::bool_};
const std::vector<kind> kArray{kind::array};
const std::vector<kind> kObject{kind::object};

void check_keys(const json::value& value, const std::vector<KeySpec>& specs) {
  REQUIRE(value.is_object());
  for (const auto& [key, kinds] : specs) {
    INFO("key " << key);
    const auto* member = value.as_object().if_contains(key);
    REQUIRE(member != nullptr);
    REQUIRE(std::find(kinds.begin(), kinds.end(), member->kind()) != kinds.end());
  }
}

std::vector<kind> or_null(std::vector<kind> kinds) {
  kinds.push_back(kind::null);
  return kinds;
}

}  // namespace

TEST_CASE("JSON report of the seed run matches its golden file and parses back", "[results]") {
  const auto report = test_support::seed_report();
  const auto text = results::JsonEmitter().render(report);
  test_support::check_golden("report_seed.json", text);
  REQUIRE(json::parse(text) == results::to_json(report));
}

TEST_CASE("JSON report has every contract key with the right kind", "[results]") {
  const auto value = results::to_json(test_support::seed_report());
  check_keys(value, {{"schema_version", kNumber}, {"tool_version", kString}, {"kernel", kString},
                     {"started_at", kString}, {"finished_at", kString}, {"strategy", kString},
                     {"method", kString}, {"repeats", kNumber}, {"seed", kNumber},
                     {"device", kObject}, {"identify", kObject}, {"space", kObject},
                     {"baseline", kObject}, {"trials", kArray}, {"winner", kObject},
                     {"restored", kBool}, {"restore_detail", kString}, {"wedged", kBool},
                     {"wedged_detail", kString}});
  REQUIRE(value.at("schema_version") == results::kSchemaVersion);
  check_keys(value.at("device"), {{"path", kString}, {"model", kString}, {"serial", kString},
                                  {"firmware", kString}, {"simulated", kBool},
                                  {"stable_path", or_null(kString)}, {"identify_note", or_null(kString)},
                                  {"size_bytes", kNumber}, {"wwid", or_null(kString)},
                                  {"backing_file", or_null(kString)}});
  REQUIRE(value.at("device").at("stable_path").is_null());
  REQUIRE(value.at("device").at("identify_note").is_null());
  const auto& space = value.at("space");
  check_keys(space, {{"dimensions", kArray}, {"legal_count", kNumber}, {"pruned", kArray},
                     {"unsupported", kArray}});
  check_keys(space.at("dimensions").at(0), {{"setting", kString}, {"values", kArray}});
  check_keys(space.at("pruned").at(0), {{"reason", kString}, {"count", kNumber}});
  check_keys(space.at("unsupported").at(0), {{"setting", kString}, {"reason", kString}});
  check_keys(value.at("baseline"), {{"settings", kObject}, {"samples", kArray},
                                    {"median", kDouble}, {"spread_pct", kDouble},
                                    {"cached_median_mib_s", kDouble}});
  for (const auto& trial : value.at("trials").as_array())
    check_keys(trial, {{"id", kNumber}, {"settings", kObject}, {"status", kString},
                       {"samples", kArray}, {"median", kDouble}, {"spread_pct", kDouble},
                       {"detail", kString}});
  check_keys(value.at("winner"), {{"settings", kObject}, {"changes", kObject},
                                  {"median", kDouble}, {"spread_pct", kDouble},
                                  {"speedup", kDouble}, {"keep_baseline", kBool},
                                  {"trial_id", kNumber}});
}

TEST_CASE("identify JSON has every contract key with the right kind", "[results]") {
  const auto value = results::to_json(test_support::seed_report()).at("identify");
  const auto list = kArray;
  check_keys(value, {{"model", kString}, {"serial", kString}, {"firmware", kString},
                     {"device_type", kString}, {"max_multsect", kNumber},
                     {"multsect", or_null(kNumber)}, {"lba_sectors", kNumber},
                     {"dma_supported", kBool}, {"lba_supported", kBool},
                     {"iordy_supported", kBool}, {"pio_modes", list}, {"sdma_modes", list},
                     {"mdma_modes", list}, {"mdma_active", or_null(kNumber)},
                     {"udma_modes", list}, {"udma_active", or_null(kNumber)},
                     {"cable_80wire", or_null(kBool)}, {"checksum", kString},
                     {"source", kString}, {"warnings", list}, {"is_sata", kBool},
                     {"ata_major_versions", list}, {"features", kObject}});
  for (const char* feature : {"write_cache", "look_ahead", "apm", "aam", "lba48"})
    check_keys(value.at("features").at(feature), {{"supported", kBool}, {"enabled", or_null(kBool)}});
  REQUIRE(value.at("device_type") == "ata");
  REQUIRE(value.at("source") == "hdparm-i");
  REQUIRE(value.at("checksum") == "unknown");
  REQUIRE(value.at("multsect") == 16);
  REQUIRE(value.at("udma_active") == 2);
  REQUIRE(value.at("mdma_active").is_null());
  REQUIRE(value.at("cable_80wire").is_null());
  REQUIRE(value.at("lba_sectors") == 49981680);
  REQUIRE(value.at("udma_modes") == json::array{0, 1, 2, 3, 4});
}

TEST_CASE("identify JSON shows what the decoder knows and null for what it does not", "[results]") {
  probe::IdentifyInfo info;
  info.device_type = probe::DeviceType::atapi;
  info.source = probe::IdentifySource::hdparm_I;
  info.checksum = probe::Checksum::invalid;
  info.cable_80wire = false;
  info.lba48 = {true, true};
  info.apm = {true, std::nullopt};
  info.warnings = {"MaxMultSect 12 is not a power of two"};
  const auto value = results::identify_to_json(info);
  REQUIRE(value.at("device_type") == "atapi");
  REQUIRE(value.at("source") == "hdparm-I");
  REQUIRE(value.at("checksum") == "invalid");
  REQUIRE(value.at("cable_80wire") == false);
  REQUIRE(value.at("multsect").is_null());
  REQUIRE(value.at("features").at("lba48").at("enabled") == true);
  REQUIRE(value.at("features").at("apm").at("enabled").is_null());
  REQUIRE(value.at("warnings").at(0) == "MaxMultSect 12 is not a power of two");
}

TEST_CASE("JSON settings use names, xfermode as its mode name, scheduler as text", "[results]") {
  const auto value = results::to_json(test_support::seed_report());
  const auto& changes = value.at("winner").at("changes").as_object();
  REQUIRE(changes.size() == 5);
  REQUIRE(changes.at("xfermode") == "udma2");
  REQUIRE(changes.at("using_dma") == 1);
  REQUIRE(changes.at("multcount") == 16);
  REQUIRE(value.at("baseline").at("settings").at("xfermode") == "pio4");
  const auto loop = results::to_json(test_support::loop_report());
  REQUIRE(loop.at("winner").at("changes").at("scheduler") == "mq-deadline");
  REQUIRE(loop.at("identify").is_null());
  REQUIRE(loop.at("device").at("identify_note") ==
          "no identify data (ioctl(HDIO_GET_IDENTITY) on /dev/loop0: Invalid argument; "
          "ioctl(SG_IO ATA_16 IDENTIFY) on /dev/loop0: Invalid argument)");
  REQUIRE(loop.at("space").at("unsupported").as_array().size() == 5);
}

TEST_CASE("JSON winner changes hold only settings that differ from the baseline", "[results]") {
  for (auto report : {test_support::seed_report(), test_support::loop_report(),
                      test_support::keep_baseline_report(), test_support::by_id_report()}) {
    report.winner.changes.insert(*report.baseline.trial.settings.begin());  // an unchanged one
    const auto value = results::to_json(report);
    const auto& baseline = value.at("baseline").at("settings").as_object();
    const auto& winner = value.at("winner").at("settings").as_object();
    for (const auto& change : value.at("winner").at("changes").as_object()) {
      REQUIRE(winner.at(change.key()) == change.value());
      REQUIRE(baseline.at(change.key()) != change.value());
    }
  }
  REQUIRE(results::to_json(test_support::keep_baseline_report())
              .at("winner").at("changes").as_object().empty());
}

TEST_CASE("pretty_json indents by two, keeps key order and formats doubles", "[results]") {
  const json::value value = json::object{
      {"b", 1}, {"a", json::array{1.5, 4.0}}, {"e", json::object{}}, {"n", nullptr},
      {"s", "q\"x"}, {"o", json::array{json::object{{"k", true}}}},
      {"inf", std::numeric_limits<double>::infinity()}};
  REQUIRE(results::pretty_json(value) ==
          "{\n"
          "  \"b\": 1,\n"
          "  \"a\": [1.5, 4.0],\n"
          "  \"e\": {},\n"
          "  \"n\": null,\n"
          "  \"s\": \"q\\\"x\",\n"
          "  \"o\": [\n"
          "    {\n"
          "      \"k\": true\n"
          "    }\n"
          "  ],\n"
          "  \"inf\": null\n"
          "}\n");
  REQUIRE(results::pretty_json(json::value(3.83)) == "3.83\n");
}
