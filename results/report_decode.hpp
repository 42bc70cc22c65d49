// SPDX-License-Identifier: GPL-2.0-or-later
// The parts of a JSON report the snippet emitters need, decoded back into a Report.
#pragma once

#include "results/report.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>

namespace disktune::results {

/// A Report holding what the snippet emitters (boot.local, udev, ...) read, from a JSON
/// report of any schema (1-3, docs/report.md): tool_version, finished_at, strategy, seed,
/// method, repeats, max_repeats, all_samples, objective (by name; seq-read when absent), device, the
/// baseline's settings and figures, trials, confirmation, winner, completed and too_noisy.
/// Lenient: a missing or malformed field keeps its default (a trial that does not decode is
/// left out), so a snippet from an odd report may lack a figure but never invents a setting:
/// winner.changes and settings are decoded with the settings codec or left empty (then
/// keep_baseline is set). Errors: none.
Report snippet_report(const boost::json::value& report);

/// Why `report` is no report the HTML page (results/html_report.hpp) can show; "" when it is.
/// It needs schema_version, a whole number from 1 to kSchemaVersion (docs/report.md), "device"
/// and "baseline" objects, "winner" null or an object, and "trials" and
/// "confirmation.results" absent, null or lists of objects: the page's script iterates them, and
/// a "trials" of "y" or [null] stopped it half-way. The text names the field and the reason.
/// Errors: none (the reason is the result).
std::string html_report_shape_error(const boost::json::object& report);

}  // namespace disktune::results
