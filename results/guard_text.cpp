// SPDX-License-Identifier: GPL-2.0-or-later
// The guard's note of a trial.
#include "results/guard_text.hpp"

#include "strategies/guard.hpp"

#include <cstdio>

namespace disktune::results {

std::string guard_note(const bench::Objective& guard, const strategies::TrialResult& trial,
                       const strategies::TrialResult& baseline, double tolerance) {
  if (!strategies::fails_guard(trial, baseline, tolerance)) return "";
  char percent[64];
  std::snprintf(percent, sizeof percent, "%.1f %% worse than the baseline's ", 100.0 * *strategies::guard_shortfall(trial, baseline));
  char allowed[32];
  std::snprintf(allowed, sizeof allowed, "%g %%", 100.0 * tolerance);
  return "guard: " + guard.name + " " + bench::format_figure(guard, trial.guard->median) + ", " + percent +
         bench::figure_number(guard, baseline.guard->median) + ": beyond --tolerance " + allowed;
}

}  // namespace disktune::results
