// SPDX-License-Identifier: GPL-2.0-or-later
// run_report (report_command.hpp): a saved JSON report turned into the HTML report.
#include "tuner/report_command.hpp"

#include "results/html_report.hpp"
#include "results/report.hpp"
#include "results/report_decode.hpp"
#include "tuner/input_file.hpp"
#include "tuner/output_file.hpp"
#include "tuner/run_error.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace disktune::tuner {
namespace {

namespace json = boost::json;

// `key` of `o` is absent, null or an array of objects: what the page's tables and charts
// iterate (a "trials" of "y" or [null] stopped its script half-way). "" when it is.
std::string not_list_of_objects(const json::object& o, const std::string& key, const std::string& name) {
  const auto* v = o.if_contains(key);
  if (!v || v->is_null()) return "";
  if (!v->is_array()) return name + " is not a list";
  for (const auto& one : v->as_array())
    if (!one.is_object()) return name + " holds a " + std::string(one.is_null() ? "null" : "non-object") + " entry";
  return "";
}

// Why `o` is not a report the HTML page can show (schema_version as the program writes it, the
// sections the page reads of the right shape); "" when it is. A page of "undefined" from a file
// that is no report must not be written with exit 0.
std::string report_shape_error(const json::object& o) {
  const auto* schema = o.if_contains("schema_version");
  if (!schema || !schema->is_int64()) return "no schema_version (a number): not a disktune report";
  if (schema->as_int64() < 1 || schema->as_int64() > results::kSchemaVersion)
    return "schema_version " + json::serialize(*schema) + " is not one this disktune writes (1-" +
           std::to_string(results::kSchemaVersion) + ")";
  for (const char* key : {"device", "baseline"})
    if (const auto* v = o.if_contains(key); !v || !v->is_object()) return std::string(key) + " is not an object";
  if (const auto* w = o.if_contains("winner"); w && !w->is_null() && !w->is_object()) return "winner is not an object";
  if (auto why = not_list_of_objects(o, "trials", "trials"); !why.empty()) return why;
  if (const auto* c = o.if_contains("confirmation"); c && !c->is_null()) {
    if (!c->is_object()) return "confirmation is not an object";
    if (auto why = not_list_of_objects(c->as_object(), "results", "confirmation.results"); !why.empty()) return why;
  }
  return "";
}

}  // namespace

ExitCode run_report(const Config& config) {
  const auto& file = config.reports.at(0);
  check_input_file("report", file);
  check_output_path(*config.html_path);
  if (same_file(file, *config.html_path))  // the page written over the report it is made from
    throw RunError(kExitUsage, "report " + file + " and --html name the same file (" + *config.html_path + ")");
  const auto text = read_whole_file(file);
  if (!text) throw RunError(kExitUsage, "report " + file + ": cannot be read");
  boost::system::error_code parse_error;
  const auto report = boost::json::parse(*text, parse_error);
  if (parse_error || !report.is_object())
    throw RunError(kExitUsage, "report " + file + ": not a JSON report (" + (parse_error ? parse_error.message() : "no object") + ")");
  if (const auto why = report_shape_error(report.as_object()); !why.empty())
    throw RunError(kExitUsage, "report " + file + ": " + why);
  const auto snippets = results::install_snippets(results::snippet_report(report));
  write_output(*config.html_path, results::render_html_report(report, snippets));
  return kExitOk;
}

}  // namespace disktune::tuner
