// SPDX-License-Identifier: GPL-2.0-or-later
// A run stopped before its baseline was measured: the table, snippets and report show no 0 figure.
#include "results/boot_local.hpp"
#include "results/json_report.hpp"
#include "results/table.hpp"

#include "tests/support/sample_reports.hpp"

#include <boost/json.hpp>
#include <catch2/catch.hpp>

using namespace disktune;

namespace {

// As tuner::run_tune leaves it after SIGINT during the baseline: no baseline, no trials.
results::Report stopped_in_baseline(const char* objective) {
  auto report = test_support::keep_baseline_report();
  report.objective = bench::parse_objective(objective, "").value();
  report.baseline = strategies::Baseline{};
  report.trials.clear();
  report.completed = false;
  report.stop_reason = "stopped by signal 2 (SIGINT)";
  report.winner = {report.winner.settings, {}, 0.0, 0.0, 1.0, true, 0};
  return report;
}

}  // namespace

TEST_CASE("a baseline the run stopped before measuring is 'not measured', never a 0 figure", "[results]") {
  const auto* name = GENERATE(as<const char*>{}, "seq-read", "rand-read-iops", "rand-read-latency");
  const auto report = stopped_in_baseline(name);
  const auto table = results::TableEmitter().render(report);
  CHECK_THAT(table, Catch::Contains("base  -") && Catch::Contains("not measured"));
  CHECK_THAT(table, !Catch::Contains("* base"));  // a stopped run recommends nothing
  CHECK_THAT(table, !Catch::Contains(" 0 ") && !Catch::Contains("0.00") && !Catch::Contains("±0.0%"));
  const auto snippet = results::BootLocalEmitter().render(report);
  CHECK_THAT(snippet, Catch::Contains("# baseline: not measured [search]\n"));
  CHECK_THAT(snippet, !Catch::Contains("# baseline: 0"));
  const auto json = results::to_json(report);
  CHECK(json.at("baseline").at("figure").is_null());
}

// A run stopped mid-search once starred its best trial and its snippet said
// "# winner: ... 1.43x the baseline" above "no settings are recommended"; one stopped in
// the baseline said "# result: keep the baseline" under the same line.
TEST_CASE("a stopped run marks no answer and its snippet names none", "[results]") {
  SECTION("stopped in the baseline") {
    const auto snippet = results::BootLocalEmitter().render(stopped_in_baseline("seq-read"));
    CHECK_THAT(snippet, Catch::Contains("# result:   none: the run stopped before it completed\n"));
    CHECK_THAT(snippet, !Catch::Contains("keep the baseline"));
  }
  SECTION("stopped in the search, with a best trial so far") {
    auto report = test_support::seed_report();
    report.completed = false;
    report.stop_reason = "stopped by signal 2 (SIGINT)";
    const auto table = results::TableEmitter().render(report);
    CHECK_THAT(table, !Catch::Contains("* "));
    CHECK_THAT(table, Catch::Contains("no configuration is recommended"));
    const auto snippet = results::BootLocalEmitter().render(report);
    CHECK_THAT(snippet, !Catch::Contains("# winner:"));
    CHECK_THAT(snippet, Catch::Contains("# result:   none: the run stopped before it completed\n"));
  }
}
