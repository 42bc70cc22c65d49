// SPDX-License-Identifier: GPL-2.0-or-later
// The files the HTML report inlines, embedded at build time (results/html/embed_assets.cmake).
#pragma once

#include <string>

namespace disktune::results {

/// vega, vega-lite and vega-embed, minified (versions pinned by third_party/vega/package-lock.json),
/// concatenated in that order, each newline-terminated, source-map comments removed. Holds no
/// "</script" (the build checks), so it can sit inside a <script> element as is.
std::string chart_library_js();

/// The report page's own script (results/html/report_page.js): draws the page from the
/// report's JSON in the element #report-data.
std::string report_page_js();

/// The report page's style sheet (results/html/report_page.css).
std::string report_page_css();

}  // namespace disktune::results
