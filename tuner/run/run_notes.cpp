// SPDX-License-Identifier: GPL-2.0-or-later
// The sentences a tune ends with when it stops short: a spent budget, a baseline disturbed.
#include "tuner/run/run_notes.hpp"

#include "probe/core/text.hpp"
#include "results/snippet.hpp"

namespace disktune::tuner {
namespace {

std::string seconds_text(double seconds) { return probe::printf_number("%g", seconds); }

}  // namespace

std::string budget_note(const SearchBounds& bounds, std::size_t trials) {
  if (bounds.max_trials == std::size_t{0}) return std::string(results::kBaselineOnlyNote);
  const std::string spent = bounds.max_trials && trials >= *bounds.max_trials
                                ? "--max-trials " + std::to_string(*bounds.max_trials)
                                : "--time-budget " + seconds_text(bounds.time_budget_s.value_or(0.0)) + " s";
  return "search budget spent (" + spent + ") after " + std::to_string(trials) +
         " trials: the answer is the best of what was measured";
}


// What to do about a baseline another process disturbed (baseline_changed_behind).
std::string concurrent_change_message(const probe::Error& error) {
  return "stopped: another process changed a setting of " + error.path + " while its baseline was measured (" +
         error.op.substr(error.op.find(": ") + 2) +
         "); the baseline cannot be trusted. Stop whatever changes it (a udev rule, tuned, a script, another "
         "tuner) and run disktune tune again (it resumes); the original settings are restored";
}

}  // namespace disktune::tuner
