// SPDX-License-Identifier: GPL-2.0-or-later
// The parts of a JSON report the snippet emitters need, decoded back into a Report.
#pragma once

#include "results/report.hpp"

#include <boost/json/value.hpp>

namespace disktune::results {

/// A Report holding what the snippet emitters (boot.local, udev, ...) read, from a JSON
/// report of any schema (1-3, docs/report.md): tool_version, finished_at, strategy, seed,
/// method, repeats, max_repeats, objective (by name; seq-read when absent), device, the
/// baseline's settings and figures, trials, confirmation, winner, completed and too_noisy.
/// Lenient: a missing or malformed field keeps its default (a trial that does not decode is
/// left out), so a snippet from an odd report may lack a figure but never invents a setting:
/// winner.changes and settings are decoded with the settings codec or left empty (then
/// keep_baseline is set). Errors: none.
Report snippet_report(const boost::json::value& report);

}  // namespace disktune::results
