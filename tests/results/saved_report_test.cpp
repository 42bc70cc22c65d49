// SPDX-License-Identifier: GPL-2.0-or-later
// parse_saved_report: what apply and verify read from a report, and the reports they refuse.
#include "results/saved_report.hpp"

#include "results/json_report.hpp"
#include "tests/support/sample_reports.hpp"

#include <boost/json.hpp>

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;

namespace {

namespace json = boost::json;

// The loop report as a real (not simulated) drive's, with its identity fields set.
json::object loop_report_json() {
  auto report = test_support::loop_report();
  report.device.size_bytes = 64u << 20;
  report.device.backing_file = "/srv/images/disk.img";
  return results::to_json(report).as_object();
}

// The refusal as apply, verify and install print it (tuner::read_report: the op, no errno text).
std::string error_of(const json::object& o) {
  const auto parsed = results::parse_saved_report(json::serialize(o), "r.json");
  REQUIRE_FALSE(parsed.has_value());
  return parsed.error().op;
}

}  // namespace

TEST_CASE("a saved report gives the drive's identity, its baseline and the winner's changes", "[results]") {
  const auto parsed = results::parse_saved_report(json::serialize(loop_report_json()), "r.json");
  REQUIRE(parsed.has_value());
  REQUIRE(parsed->device.path == "/dev/loop0");
  REQUIRE(parsed->device.size_bytes == 64u << 20);
  REQUIRE(parsed->device.backing_file == "/srv/images/disk.img");
  REQUIRE(parsed->device.wwid.empty());
  // loop_report: read_ahead_kb 128->1024, scheduler none->mq-deadline, nr_requests 128->64.
  REQUIRE(parsed->changes.size() == 3);
  REQUIRE(parsed->changes.at(SettingId::read_ahead_kb).number() == 1024);
  REQUIRE(parsed->changes.at(SettingId::scheduler).text() == "mq-deadline");
  REQUIRE(parsed->baseline.at(SettingId::read_ahead_kb).number() == 128);
}

TEST_CASE("a keep-baseline report has no changes", "[results]") {
  auto report = test_support::keep_baseline_report();
  report.device.size_bytes = 1;
  const auto parsed = results::parse_saved_report(json::serialize(results::to_json(report)), "k.json");
  REQUIRE(parsed.has_value());
  REQUIRE(parsed->changes.empty());
}

TEST_CASE("reports apply cannot use are refused with the file and the reason", "[results]") {
  auto o = loop_report_json();
  o["schema_version"] = 2;
  REQUIRE_THAT(error_of(o), Catch::Contains("r.json: schema_version 2 has no drive size or backing file"));
  o["schema_version"] = results::kSchemaVersion + 96;  // a later disktune's: its fields may mean something else
  REQUIRE_THAT(error_of(o), Catch::Contains("r.json: schema_version 99 is newer than this disktune writes (3)"));
  o = loop_report_json();
  o["device"].as_object()["simulated"] = true;
  REQUIRE_THAT(error_of(o), Catch::Contains("a SIMULATED drive's report: it was measured on no disk, so there is none to apply, verify or install it on"));
  o = loop_report_json();
  o["completed"] = false;
  REQUIRE_THAT(error_of(o), Catch::Contains("the run stopped before it completed"));
  o["too_noisy"] = true;  // completed false too: the words say which it was
  REQUIRE_THAT(error_of(o), Catch::Contains("the run was too noisy for an answer (nothing beat the noise)"));
  o = loop_report_json();
  o["device"].as_object().erase("size_bytes");
  REQUIRE_THAT(error_of(o), Catch::Contains("r.json: device.size_bytes: missing"));
  o = loop_report_json();
  o["winner"].as_object()["changes"].as_object()["no_such_knob"] = 1;
  REQUIRE_THAT(error_of(o), Catch::Contains("winner.changes"));
  const auto not_json = results::parse_saved_report("{\"schema_version\": 3,", "bad.json");
  REQUIRE_FALSE(not_json.has_value());
  REQUIRE_THAT(not_json.error().message(), Catch::Contains("bad.json: not JSON"));
  REQUIRE_THAT(results::parse_saved_report("[1]", "a.json").error().message(), Catch::Contains("not a JSON object"));
}

TEST_CASE("a report whose identity strings are longer than a path can be is refused, naming the field", "[results]") {
  // A 50 MB emulated_by passed apply and verify and made a 250 MB HTML page.
  for (const char* key : {"model", "path", "backing_file", "emulated_by"}) {
    INFO(key);
    auto o = loop_report_json();
    o["device"].as_object()[key] = std::string(4097, 'x');
    CHECK_THAT(error_of(o), Catch::Contains(std::string("device.") + key) && Catch::Contains("4097 characters long"));
  }
  auto o = loop_report_json();
  o["device"].as_object()["model"] = std::string(4096, 'x');  // the longest accepted
  CHECK(results::parse_saved_report(json::serialize(o), "r.json").has_value());
}

TEST_CASE("a report whose identity strings hold control characters is refused, naming the field", "[results]") {
  // They would reach the terminal raw in every message naming the drive (an escape sequence
  // retitles the window, a newline splits a one-line error); no drive's identity holds one.
  for (const char* key : {"model", "serial", "firmware", "path", "wwid", "backing_file", "stable_path", "emulated_by"}) {
    for (const char* bad : {"S\x1b]0;pwned\x07", "two\nlines", "del\x7f"}) {
      INFO(key);
      auto o = loop_report_json();
      o["device"].as_object()[key] = bad;
      CHECK_THAT(error_of(o), Catch::Contains(std::string("device.") + key) && Catch::Contains("control character"));
    }
  }
}

// multcount 99 and scheduler "bogus" have the right shape: only the space the tune searched
// keeps them out of the snippets.
TEST_CASE("a hand-edited winner outside the tune's space or equal to the baseline is refused", "[results]") {
  auto o = loop_report_json();
  auto& changes = o["winner"].as_object()["changes"].as_object();
  changes["read_ahead_kb"] = 99;
  REQUIRE_THAT(error_of(o), Catch::Contains("r.json: winner.changes.read_ahead_kb 99 is not one of the values the "
                                            "tune searched (0, 128, 1024, 4096)"));
  changes["read_ahead_kb"] = 1024;
  changes["scheduler"] = "bogus";
  REQUIRE_THAT(error_of(o), Catch::Contains("winner.changes.scheduler bogus is not one of the values"));
  changes["scheduler"] = "mq-deadline";
  changes["multcount"] = 16;
  REQUIRE_THAT(error_of(o), Catch::Contains("winner.changes.multcount 16: the tune did not search multcount"));
  changes.erase("multcount");
  changes["read_ahead_kb"] = 128;  // the baseline's
  REQUIRE_THAT(error_of(o), Catch::Contains("winner.changes.read_ahead_kb 128 is the baseline's own value"));
  changes["read_ahead_kb"] = 1024;
  o.erase("space");
  REQUIRE_THAT(error_of(o), Catch::Contains("space.dimensions is missing"));
}

// The space is data too: edited along with the winner, a value no drive takes is still refused.
TEST_CASE("a winner no drive takes is refused even when the space was edited to list it", "[results]") {
  auto o = loop_report_json();
  auto& dimensions = o["space"].as_object()["dimensions"].as_array();
  dimensions.push_back(json::object{{"setting", "multcount"}, {"values", json::array{0, 16, 99}}});
  dimensions.push_back(json::object{{"setting", "nomerges"}, {"values", json::array{0, 7}}});
  auto& baseline = o["baseline"].as_object()["settings"].as_object();
  baseline["multcount"] = 0;
  baseline["nomerges"] = 0;
  auto& changes = o["winner"].as_object()["changes"].as_object();
  changes["multcount"] = 99;
  REQUIRE_THAT(error_of(o), Catch::Contains("winner.changes.multcount 99: multcount is 0 or a power of two up to 128 sectors"));
  changes["multcount"] = 16;
  REQUIRE(results::parse_saved_report(json::serialize(o), "r.json").has_value());
  changes["nomerges"] = 7;
  REQUIRE_THAT(error_of(o), Catch::Contains("winner.changes.nomerges 7: nomerges is 0, 1 or 2"));
}

// Combinations a tune never applies and a setting listed twice are refused, with no errno text.
TEST_CASE("a winner that is no configuration a tune applies is refused, naming why", "[results]") {
  auto o = loop_report_json();  // the winner: read_ahead_kb 1024, scheduler mq-deadline, nr_requests 64
  auto& dimensions = o["space"].as_object()["dimensions"].as_array();
  dimensions.push_back(json::object{{"setting", "read_lat_nsec"}, {"values", json::array{1000000, 2000000}}});
  dimensions.push_back(json::object{{"setting", "fifo_batch"}, {"values", json::array{1, 16}}});
  auto& changes = o["winner"].as_object()["changes"].as_object();
  changes["read_lat_nsec"] = 1000000;  // kyber's, with mq-deadline
  REQUIRE_THAT(error_of(o), Catch::Contains("winner.changes.read_lat_nsec 1000000: a tunable of kyber, and the winner runs mq-deadline"));
  changes.erase("read_lat_nsec");
  changes["fifo_batch"] = 1;  // mq-deadline's: fine
  REQUIRE(results::parse_saved_report(json::serialize(o), "r.json").has_value());
  changes.erase("scheduler");  // the baseline runs none
  REQUIRE_THAT(error_of(o), Catch::Contains("a tunable of mq-deadline, and the winner runs none"));
  changes["scheduler"] = "mq-deadline";
  o["baseline"].as_object()["settings"].as_object().erase("nr_requests");
  REQUIRE_THAT(error_of(o), Catch::Contains("winner.changes.nr_requests 64: the baseline has no nr_requests"));
  o["baseline"].as_object()["settings"].as_object()["nr_requests"] = 128;
  dimensions.push_back(json::object{{"setting", "read_ahead_kb"}, {"values", json::array{999}}});
  REQUIRE_THAT(error_of(o), Catch::Contains("space.dimensions lists read_ahead_kb twice"));
  dimensions.pop_back();
  changes["read_ahead_kb"] = true;
  const auto why = error_of(o);
  CHECK_THAT(why, Catch::Contains("winner.changes: value true for read_ahead_kb is not a whole number or a name"));
  CHECK_THAT(why, !Catch::Contains("Invalid argument"));
}
