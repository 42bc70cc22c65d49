// SPDX-License-Identifier: GPL-2.0-or-later
// The HTML report: one self-contained page (charts inlined, no network) drawn from a JSON report.
#pragma once

#include "results/report.hpp"

#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace disktune::results {

/// Lines the page shows under the answer, e.g. {"udev rule", "ACTION==..."}.
struct HtmlSnippet {
  std::string title;
  std::string text;
};

/// The install lines of `report`: the udev rule and the boot.local snippet, as their emitters
/// (results/emitters.hpp) write them; none when the run did not complete or keeps the
/// baseline (nothing to install). A snippet whose emitter refuses the report (an unsafe
/// device name: std::invalid_argument) is left out. Errors: none.
std::vector<HtmlSnippet> install_snippets(const Report& report);

/// JSON text `text` safe inside a <script> element: every '<' becomes "\u003c" (the same
/// string to a JSON parser; in JSON a '<' can only stand inside a string). So no string in it
/// can end the element ("</script") or put the HTML parser into a script-data escaped state
/// ("<!--" followed by "<script", which left the page blank). Source: the HTML standard's
/// script data states (WHATWG HTML 13.2.5.4 ff.).
std::string script_safe(std::string_view text);

/// The whole page (UTF-8 HTML5, newline-terminated): the report JSON `report` (any schema the
/// tool has written, 1-3: docs/report.md; its non-finite numbers as null) and `snippets` as
/// {"report": ..., "snippets": [{title, text}], "keep_baseline": the answer as snippet_report
/// reads it} inside <script type="application/json" id="report-data"> (script_safe), the chart
/// library (html_assets.hpp) and the page script that draws, from that data only: a banner
/// for a simulated drive, the answer, the trials chart (#trials-chart), each setting screened
/// alone (#screened-chart), the Pareto chart (#pareto-chart, two objectives only), the search
/// space, the failed trials with their evidence and the provenance. Pure; loads nothing.
std::string render_html_report(const boost::json::value& report, const std::vector<HtmlSnippet>& snippets);

}  // namespace disktune::results
