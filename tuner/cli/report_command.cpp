// SPDX-License-Identifier: GPL-2.0-or-later
// run_report (report_command.hpp): a saved JSON report turned into the HTML report.
#include "tuner/cli/report_command.hpp"

#include "results/html_report.hpp"
#include "results/report_decode.hpp"
#include "tuner/host/input_file.hpp"
#include "tuner/host/output_file.hpp"
#include "tuner/run_error.hpp"

#include <boost/json/parse.hpp>

namespace disktune::tuner {

ExitCode run_report(const Config& config) {
  const auto& file = config.reports.at(0);
  check_input_file("report", file);
  check_output_path(*config.output.html_path);
  if (same_file(file, *config.output.html_path))  // the page written over the report it is made from
    throw RunError(kExitUsage, "report " + file + " and --html name the same file (" + *config.output.html_path + ")");
  const auto text = read_whole_file(file);
  if (!text) throw RunError(kExitUsage, "report " + file + ": cannot be read");
  boost::system::error_code parse_error;
  const auto report = boost::json::parse(*text, parse_error);
  if (parse_error || !report.is_object())
    throw RunError(kExitUsage, "report " + file + ": not a JSON report (" + (parse_error ? parse_error.message() : "no object") + ")");
  if (const auto why = results::html_report_shape_error(report.as_object()); !why.empty())
    throw RunError(kExitUsage, "report " + file + ": " + why);
  const auto snippets = results::install_snippets(results::snippet_report(report));
  write_output(*config.output.html_path, results::render_html_report(report, snippets));
  return kExitOk;
}

}  // namespace disktune::tuner
