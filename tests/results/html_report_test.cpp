// SPDX-License-Identifier: GPL-2.0-or-later
// The HTML report: data inlined intact and unable to end its script, snippets from JSON.
#include "results/html_report.hpp"

#include "results/boot_local.hpp"
#include "results/json_numbers.hpp"
#include "results/json_report.hpp"
#include "results/report_decode.hpp"
#include "results/udev_rules.hpp"
#include "tests/support/sample_reports.hpp"

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include <cctype>
#include <cmath>
#include <limits>
#include <string>

using namespace disktune;

namespace {

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The text of the page's data element.
std::string data_of(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const auto start = page.find(open);
  REQUIRE(start != std::string::npos);
  const auto end = page.find("</script>", start);
  REQUIRE(end != std::string::npos);
  return page.substr(start + open.size(), end - start - open.size());
}

}  // namespace

TEST_CASE("script_safe escapes every < and keeps the JSON it escapes the same", "[results]") {
  CHECK(results::script_safe("\"a</script>b</\"") == "\"a\\u003c/script>b\\u003c/\"");
  CHECK(results::script_safe("\"x\"") == "\"x\"");
  // "<!--<script>" in a string put the parser into the escaped state: the page stayed blank.
  for (const char* evil : {"</script><script>alert(1)</script>", "<!--<script>", "<!-- <script> -->", "</SCRIPT >"}) {
    const boost::json::value v{{"model", evil}};
    const auto safe = results::script_safe(boost::json::serialize(v));
    CHECK(safe.find('<') == std::string::npos);
    CHECK(boost::json::parse(safe) == v);
  }
}

TEST_CASE("render_html_report inlines the report and snippets whole, and no string ends a script", "[results]") {
  auto report = test_support::seed_report();
  report.trials.at(0).detail = "evil </script><script>alert(1)</script> <!-- ";
  report.trials.at(0).kernel_log = {"ata1.00: </SCRIPT >"};
  const auto json = results::to_json(report);
  const std::vector<results::HtmlSnippet> snippets{{"t", "line </script>"}};
  const auto page = results::render_html_report(json, snippets);
  // The data element, the chart library and the page script: three elements, three ends.
  std::string lower = page;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  CHECK(count_of(lower, "</script") == 3);
  const auto data = boost::json::parse(data_of(page));
  CHECK(data.at("report") == json);
  CHECK(data.at("snippets").at(0).at("text") == "line </script>");
}

TEST_CASE("a number JSON cannot hold is found by its path and never reaches the page", "[results]") {
  const auto inf = std::numeric_limits<double>::infinity();
  boost::json::object report{{"winner", boost::json::object{{"unseparated", boost::json::array{
                                            boost::json::object{{"trial_id", 4}, {"median", -inf}}}}}},
                             {"speedup", 1.5}};
  CHECK(results::non_finite_member(report) == "winner.unseparated[0].median");
  CHECK(results::non_finite_number(boost::json::parse("[1, {\"a\": 1e999}]")) == "[1].a");
  CHECK_FALSE(results::non_finite_member(boost::json::parse(R"({"a": [1.5, 2, null, "x"]})").as_object()));
  report["nan"] = std::nan("");
  const auto page = results::render_html_report(report, {});
  const auto begin = page.find(R"(id="report-data">)");
  REQUIRE(begin != std::string::npos);
  const auto data = page.substr(begin, page.find("</script>", begin) - begin);
  CHECK(data.find("Infinity") == std::string::npos);
  CHECK(data.find("NaN") == std::string::npos);
  CHECK(data.find(R"("median":null)") != std::string::npos);
  CHECK(data.find(R"("nan":null)") != std::string::npos);
  CHECK(data.find(R"("speedup":1.5E0)") != std::string::npos);
  CHECK(results::html_report_shape_error(report) ==
        "winner.unseparated[0].median: a number that reads as infinity (beyond a double's range, or an exponent Boost.JSON cannot take: JSON has no infinity)");
}

TEST_CASE("snippet_report of a report's JSON gives the emitters' own lines", "[results]") {
  auto [name, report] = GENERATE(table<const char*, results::Report>({
      {"seed", test_support::seed_report()}, {"loop", test_support::loop_report()},
      {"keep", test_support::keep_baseline_report()}, {"by-id", test_support::by_id_report()}}));
  INFO(name);
  const auto decoded = results::snippet_report(results::to_json(report));
  CHECK(results::BootLocalEmitter().render(decoded) == results::BootLocalEmitter().render(report));
  CHECK(results::UdevRulesEmitter().render(decoded) == results::UdevRulesEmitter().render(report));
}

TEST_CASE("install_snippets shows nothing to install for a kept baseline or an unfinished run", "[results]") {
  CHECK(results::install_snippets(test_support::keep_baseline_report()).empty());
  auto stopped = test_support::seed_report();
  stopped.completed = false;
  CHECK(results::install_snippets(stopped).empty());
  const auto shown = results::install_snippets(test_support::seed_report());
  REQUIRE(shown.size() == 2);
  CHECK(shown[1].text == results::BootLocalEmitter().render(test_support::seed_report()));
}

// A hand-edited winner (multcount 99) must not reach the page's snippets.
TEST_CASE("the page refuses a winner the tune's space cannot have produced", "[results]") {
  auto report = results::to_json(test_support::seed_report()).as_object();
  CHECK(results::html_report_shape_error(report).empty());
  report["winner"].as_object()["changes"].as_object()["multcount"] = 32;
  CHECK(results::html_report_shape_error(report) ==
        "winner.changes.multcount 32 is not one of the values the tune searched (0, 2, 4, 8, 16)");
}

// The seed report: using_dma 0 and xfermode pio4 as found. A DMA mode without DMA is no
// configuration a tune applies (diff review: no test reached this branch).
TEST_CASE("the page refuses a DMA transfer mode without DMA", "[results]") {
  auto report = results::to_json(test_support::seed_report()).as_object();
  report["winner"].as_object()["changes"] = boost::json::object{{"xfermode", "udma2"}};
  CHECK(results::html_report_shape_error(report) ==
        "winner.changes: xfermode udma2 with using_dma 0 (DMA modes only with using_dma=1, PIO modes only with 0)");
  report["winner"].as_object()["changes"] = boost::json::object{{"xfermode", "udma2"}, {"using_dma", 1}};
  CHECK(results::html_report_shape_error(report).empty());
}
