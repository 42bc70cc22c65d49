// SPDX-License-Identifier: GPL-2.0-or-later
// The HTML report page (html_report.hpp): the data, the inlined chart library and page script.
#include "results/html_report.hpp"

#include "results/emitters.hpp"
#include "results/html_assets.hpp"
#include "results/json_numbers.hpp"
#include "results/report_decode.hpp"

#include <boost/json/serialize.hpp>

#include <stdexcept>

namespace disktune::results {
namespace json = boost::json;

std::vector<HtmlSnippet> install_snippets(const Report& report) {
  std::vector<HtmlSnippet> snippets;
  if (!report.completed || report.winner.keep_baseline) return snippets;
  const std::pair<std::string_view, std::string_view> forms[] = {{"udev", "udev rule (disktune install: /etc/udev/rules.d)"},
                                                                {"boot-local", "boot.local snippet"}};
  for (const auto& [name, title] : forms) {
    auto emitter = make_emitter(name);
    if (!emitter) continue;
    try {
      snippets.push_back({std::string(title), (*emitter)->render(report)});
    } catch (const std::invalid_argument&) {
      // an unsafe device name: the emitter refuses to write it anywhere, the page too
    }
  }
  return snippets;
}

std::string script_safe(std::string_view text) {
  std::string safe;
  safe.reserve(text.size());
  for (const char c : text) {
    if (c == '<')
      safe += "\\u003c";
    else
      safe += c;
  }
  return safe;
}

std::string render_html_report(const json::value& report, const std::vector<HtmlSnippet>& snippets) {
  json::array shown;
  for (const auto& snippet : snippets) shown.push_back(json::object{{"title", snippet.title}, {"text", snippet.text}});
  // The answer as the snippets read it (snippet_report): a hand-edited winner the decoder
  // reads as keeping the baseline is shown so.
  const json::object data{{"report", report},
                          {"snippets", std::move(shown)},
                          {"keep_baseline", snippet_report(report).winner.keep_baseline}};
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; "
      "style-src 'unsafe-inline'; img-src data:\">\n<title>disktune report</title>\n<style>\n";
  page += report_page_css();
  page += "</style>\n</head>\n<body>\n<main id=\"report\"></main>\n<script type=\"application/json\" id=\"report-data\">";
  page += script_safe(json::serialize(finite_only(data)));  // the page's JSON.parse refuses Infinity
  page += "</script>\n<script>\n";
  page += chart_library_js();
  page += "</script>\n<script>\n";
  page += report_page_js();
  page += "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace disktune::results
