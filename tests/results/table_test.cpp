// SPDX-License-Identifier: GPL-2.0-or-later
// Terminal table: golden file, winner mark, summary lines.
#include "results/table.hpp"

#include "probe/core/text.hpp"
#include "results/json_report.hpp"
#include "results/guard_text.hpp"
#include "results/report_decode.hpp"
#include "results/snippet.hpp"

#include "tests/support/golden.hpp"
#include "tests/support/sample_reports.hpp"

#include <catch2/catch.hpp>

#include <boost/json.hpp>

#include <sstream>

using namespace disktune;

TEST_CASE("table for the seed run marks the winner and sums it up", "[results]") {
  const auto text = results::TableEmitter().render(test_support::seed_report());
  test_support::check_golden("table_seed.txt", text);
  REQUIRE(text.find("(SIMULATED drive)") != std::string::npos);
  REQUIRE(text.find("winner: -X66 -d1 -u1 -m16 -c3 (trial 3): 14.85 MB/s, 3.88x baseline 3.83 MB/s "
                    "(confirmation round)\n") != std::string::npos);
  std::istringstream in(text);
  int marked = 0;
  for (std::string line; std::getline(in, line);) {
    REQUIRE(line.find_last_not_of(' ') + 1 == line.size());
    const auto first = line.find_first_not_of(' ');
    if (first != std::string::npos && line.compare(first, 4, "* 3 ") == 0) ++marked;
    else REQUIRE((first == std::string::npos || line.compare(first, 2, "* ") != 0));
  }
  REQUIRE(marked == 1);
}

TEST_CASE("table keeping the baseline marks the baseline row", "[results]") {
  const auto text = results::TableEmitter().render(test_support::keep_baseline_report());
  REQUIRE(text.find("* base") != std::string::npos);
  REQUIRE(text.find("keep the baseline: no configuration was significantly faster than 57.90 MB/s (search)\n") !=
          std::string::npos);
  REQUIRE(text.find("SIMULATED") == std::string::npos);
}

TEST_CASE("table and report name the settings the budget left untried, under the answer", "[results]") {
  auto report = test_support::keep_baseline_report();
  report.unscreened = {"nr_requests", "max_sectors_kb"};
  const auto text = results::TableEmitter().render(report);
  CHECK(text.find("keep the baseline: no configuration was significantly faster than 57.90 MB/s (search)\n"
                  "not tried (--max-trials or --time-budget ended the search first; the answer says nothing about "
                  "them): nr_requests, max_sectors_kb\n") != std::string::npos);
  // Also under a too-noisy end: a setting the search never reached is no setting found wanting.
  auto noisy = report;
  noisy.too_noisy = true;
  noisy.noise_detail = "noise 6.75 %";
  CHECK(results::TableEmitter().render(noisy).find("no configuration is recommended\nnot tried (--max-trials or "
                                                   "--time-budget ended the search first") != std::string::npos);
  const auto json = boost::json::parse(results::JsonEmitter().render(report));
  CHECK(json.at("unscreened") == boost::json::array{"nr_requests", "max_sectors_kb"});
  report.unscreened.clear();
  CHECK(boost::json::parse(results::JsonEmitter().render(report)).as_object().if_contains("unscreened") == nullptr);
}

TEST_CASE("table: a one-sample trial's spread reads 1 sample and never a 0.0 range", "[results]") {
  auto report = test_support::seed_report();
  report.trials[1].samples = {report.trials[1].median};
  report.trials[1].spread_pct = 0.0;
  const auto text = results::TableEmitter().render(report);
  const auto row = text.find("\n    2 ");
  REQUIRE(row != std::string::npos);
  const auto line = text.substr(row + 1, text.find('\n', row + 1) - row - 1);
  CHECK_THAT(line, Catch::Contains(" 1 sample ") && !Catch::Contains("±"));
  CHECK(results::spread_text(report.trials[2]) == probe::printf_number("±%.1f%%", report.trials[2].spread_pct));
}

TEST_CASE("table and snippets name fio as the engine only where fio measured: a simulated drive's figures are the model's",
          "[results]") {
  for (const bool simulated : {false, true}) {
    auto report = test_support::loop_report();
    report.objective = bench::parse_objective("rand-read-iops", "").value();
    report.device.simulated = simulated;
    const std::string text = results::TableEmitter().render(report);
    CAPTURE(simulated, text);
    CHECK_THAT(text, Catch::Contains(simulated ? "objective rand-read-iops (the model's iops, IOPS, higher is better)"
                                               : "objective rand-read-iops (fio iops, IOPS, higher is better)"));
    CHECK((text.find("(fio ") == std::string::npos) == simulated);
  }
}

TEST_CASE("table cuts long details", "[results]") {
  auto report = test_support::seed_report();
  report.trials[4].detail = std::string(100, 'x');
  const auto text = results::TableEmitter().render(report);
  REQUIRE(text.find(std::string(37, 'x') + "...\n") != std::string::npos);
  REQUIRE(text.find(std::string(38, 'x')) == std::string::npos);
}

TEST_CASE("table says when data checksums were not compared (data in use)", "[results]") {
  auto report = test_support::keep_baseline_report();
  REQUIRE(results::TableEmitter().render(report).find("note: ") == std::string::npos);
  report.integrity_note = "data checksum check off: the data is in use";
  REQUIRE(results::TableEmitter().render(report).find("\nnote: data checksum check off: the data is in use\n") !=
          std::string::npos);
}

TEST_CASE("the table and the report name the finalists the confirmation round left tied with the winner", "[results]") {
  auto report = test_support::seed_report();
  REQUIRE(report.confirmation);
  auto rival = report.confirmation->results.back();
  rival.id = 4;
  rival.settings[probe::SettingId::multcount] = probe::SettingValue(std::int64_t{8});
  rival.median = 14.7;
  report.confirmation->results.push_back(rival);
  const auto plain = results::TableEmitter().render(report);
  CHECK(plain.find("not separated") == std::string::npos);
  CHECK(boost::json::parse(results::JsonEmitter().render(report)).at("winner").at("unseparated") == boost::json::array{});
  report.winner.unseparated = {{4, 14.7}};
  const auto text = results::TableEmitter().render(report);
  CHECK(text.find("(confirmation round)\nnot separated from the winner by the confirmation round (either reads as fast "
                  "within the noise): trial 4 (") != std::string::npos);
  CHECK(text.find(" -m8 ") != std::string::npos);
  CHECK(text.find(") 14.70 MB/s\n") != std::string::npos);
  const auto json = boost::json::parse(results::JsonEmitter().render(report));
  CHECK(json.at("winner").at("unseparated") == boost::json::parse(R"j([{"trial_id":4,"median":14.7}])j"));
  const auto decoded = results::snippet_report(json);
  REQUIRE(decoded.winner.unseparated.size() == 1);
  CHECK(decoded.winner.unseparated[0].trial_id == 4);
  CHECK(decoded.winner.unseparated[0].median == 14.7);
  // The faster one a simpler winner beat is named once, on the tie line.
  report.winner.tie = strategies::TieBreak{4, 14.7, "fewer changes (5 against 6)"};
  CHECK(results::TableEmitter().render(report).find("not separated") == std::string::npos);
}

TEST_CASE("table, report and its decoding say when a faster median lost a tie to a simpler winner", "[results]") {
  auto report = test_support::seed_report();
  report.winner.tie = strategies::TieBreak{5, 15.02, "fewer risky changes (3 against 4)"};
  const auto text = results::TableEmitter().render(report);
  CHECK(text.find("(confirmation round)\ntie: trial 5 read 15.02 MB/s, a higher median but not significantly faster "
                  "than the winner (their intervals overlap or it is ahead by less than the minimum gain); a tie goes "
                  "by the winner rule's order: fewer risky changes (3 against 4)\n") != std::string::npos);
  const auto json = boost::json::parse(results::JsonEmitter().render(report));
  CHECK(json.at("winner").at("tie") ==
        boost::json::parse(R"j({"faster_trial_id":5,"faster_median":15.02,"rule":"fewer risky changes (3 against 4)"})j"));
  const auto decoded = results::snippet_report(json);
  REQUIRE(decoded.winner.tie);
  CHECK(decoded.winner.tie->faster_trial_id == 5);
  CHECK(decoded.winner.tie->rule == "fewer risky changes (3 against 4)");
  report.winner.tie.reset();
  CHECK(results::TableEmitter().render(report).find("\ntie: ") == std::string::npos);
  CHECK(boost::json::parse(results::JsonEmitter().render(report)).at("winner").as_object().if_contains("tie") == nullptr);
}

TEST_CASE("table names the confirmation round's extra passes and the samples they pooled", "[results]") {
  auto report = test_support::seed_report();
  REQUIRE(report.confirmation);
  const auto rounds = static_cast<std::size_t>(report.confirmation->rounds);
  CHECK(results::TableEmitter().render(report).find("confirmation round (" + std::to_string(rounds) +
                                                    " interleaved rounds, each contender") != std::string::npos);
  for (auto& result : report.confirmation->results) result.samples.resize(4 * rounds, result.median);
  CHECK(results::TableEmitter().render(report).find("confirmation round (" + std::to_string(rounds) +
                                                    " interleaved rounds and 3 extra passes, " +
                                                    std::to_string(4 * rounds) + " samples per contender") !=
        std::string::npos);
  // A baseline far behind every finalist is left out after the first call (3 samples): the
  // passes are counted from the finalists, not from the baseline's samples.
  report.confirmation->results.front().samples.resize(3);
  CHECK_THAT(results::TableEmitter().render(report),
             Catch::Contains(" interleaved rounds and 3 extra passes, " + std::to_string(4 * rounds) +
                             " samples per contender (the baseline 3: far behind, not measured again)"));
}

TEST_CASE("table names the settings that acted in the screening, or says none did", "[results]") {
  auto report = test_support::keep_baseline_report();
  report.acting = {};
  CHECK(results::TableEmitter().render(report).find(
            "no setting's effect exceeded the noise in the screening: every value tried tied with the baseline\n") !=
        std::string::npos);
  report.unscreened = {"nr_requests"};  // a budget cut the screening short: no such claim
  CHECK(results::TableEmitter().render(report).find("no setting's effect") == std::string::npos);
  report.unscreened.clear();
  report.acting = {"max_sectors_kb", "read_ahead_kb"};
  const auto text = results::TableEmitter().render(report);
  CHECK(text.find("settings that made a difference beyond the noise in the screening (a value faster or slower than the baseline): max_sectors_kb, read_ahead_kb\n") !=
        std::string::npos);
  CHECK(text.find("no setting's effect") == std::string::npos);
  CHECK(boost::json::parse(results::JsonEmitter().render(report)).at("acting") ==
        boost::json::array{"max_sectors_kb", "read_ahead_kb"});
}

namespace {

// The seed run with a guard objective (rand-read-iops), its figures of every width, and a
// trial that fails the guard by far more than --tolerance.
results::Report two_objective_report() {
  auto report = test_support::seed_report();
  report.guard = bench::parse_objective("rand-read-iops", "").value();
  report.tolerance = 0.05;
  report.baseline.trial.guard = strategies::guard_figures_of({99.0, 100.0, 101.0});
  const std::vector<double> guards{98.0, 7.0, 12345.0};
  for (std::size_t i = 0; i < guards.size(); ++i)
    report.trials[i].guard = strategies::guard_figures_of({guards[i], guards[i], guards[i]});
  for (auto& trial : report.confirmation->results) trial.guard = strategies::guard_figures_of({100.0, 100.0, 100.0});
  return report;
}

// The column where `text` ends on `line`.
std::size_t end_of(const std::string& line, const std::string& text) {
  const auto at = line.find(text);
  REQUIRE(at != std::string::npos);
  return at + text.size();
}

}  // namespace

TEST_CASE("table with two objectives: each figure in its own aligned column, the guard's note whole", "[results]") {
  const auto report = two_objective_report();
  const auto text = results::TableEmitter().render(report);
  test_support::check_golden("table_two_objectives.txt", text);
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  // lines[1] the header, [2] the baseline, [3..5] trials 1-3: A's figures end under A's
  // header, B's under B's, whatever their widths.
  const std::size_t a_end = end_of(lines[1], "MB/s"), b_end = end_of(lines[1], "rand-read-iops IOPS");
  const std::vector<std::pair<std::string, std::string>> figures{
      {"3.83", "100"}, {"5.66", "98"}, {"11.92", "7"}, {"14.85", "12345"}};
  for (std::size_t i = 0; i < figures.size(); ++i) {
    INFO(lines[2 + i]);
    CHECK(end_of(lines[2 + i], "  " + figures[i].first + " ") - 1 == a_end);
    CHECK(end_of(lines[2 + i].substr(a_end), " " + figures[i].second + " ") - 1 + a_end == b_end);
  }
  // Trial 2 reads 7 IOPS against 100: the guard's note says so in full, tolerance included.
  CHECK_THAT(text, Catch::Contains(results::guard_note(*report.guard, report.trials[1], report.baseline.trial, 0.05)));
  CHECK_THAT(text, Catch::Contains("beyond --tolerance 5 %\n"));
}

TEST_CASE("table and snippets say every trial took the most samples when the noise made it so", "[results]") {
  // The run said "taking 10 samples per trial (--max-repeats)", the table "3-10 samples (adaptive)".
  auto report = test_support::seed_report();
  CHECK_THAT(results::sampling_text(report), Catch::Contains("samples (adaptive)"));
  report.all_samples = true;
  for (auto& trial : report.trials) trial.samples.resize(static_cast<std::size_t>(report.max_repeats), trial.median);
  CHECK(results::sampling_text(report) ==
        "median of " + std::to_string(report.max_repeats) +
            " samples (every trial: the baseline's noise was above the minimum gain)");
  // The adversary's run: "median of 10 samples (every trial: ...)" above rows reading "1 sample".
  report.trials.front().samples.resize(1);
  CHECK(results::sampling_text(report) ==
        "median of up to " + std::to_string(report.max_repeats) +
            " samples (" + std::to_string(report.max_repeats) +
            " unless a trial was clearly slower or showed no gain: the baseline's noise was above the minimum gain)");
  CHECK_THAT(results::TableEmitter().render(report), !Catch::Contains("(adaptive)"));
  CHECK(results::snippet_report(results::to_json(report)).all_samples);
}

