// SPDX-License-Identifier: GPL-2.0-or-later
// TableEmitter: the run as a fixed-width table for the terminal.
#pragma once

#include "results/emitter.hpp"
#include "results/hdparm_flags.hpp"

namespace disktune::results {

/// Renders a title line (tool version, device, model, "SIMULATED drive" when simulated,
/// strategy, method, repeats), a column header, the baseline row ("-" and "not measured" when the run
/// stopped before measuring it: never a 0 figure), then one row per trial:
/// trial id, status, median MB/s ("-" when not ok), with a guard objective its figure in a
/// column of its own, ±spread %, the settings changed against the baseline (describe_changes)
/// and the detail: the trial's cut to 40 characters, else the guard's note whole. The winner's row is
/// marked '*'. Last, a summary: "winner: -X66 -d1 -u1 -m16 -c3 (trial 2): 14.85 MB/s, 3.88x
/// baseline 3.83 MB/s" or "keep the baseline: no configuration was significantly faster".
/// Columns are padded by UTF-8 code points; no line has trailing blanks.
class TableEmitter : public Emitter {
 public:
  [[nodiscard]] std::string render(const Report& report) const override;
};

/// A trial's spread as the table and the tune log print it: "±S%" (± half the range of its
/// samples, TrialResult::spread_pct, one decimal) from two samples on, "1 sample" for one: a
/// range of one value is no evidence of steadiness ("±0.0%" read as a noiseless
/// configuration). Errors: none.
[[nodiscard]] std::string spread_text(const strategies::TrialResult& trial);

}  // namespace disktune::results
