// SPDX-License-Identifier: GPL-2.0-or-later
// The sentences a tune ends with when it stops short: a spent budget, a baseline disturbed.
#pragma once

#include "probe/core/error.hpp"
#include "tuner/journal/search_bounds.hpp"

#include <cstddef>
#include <string>

namespace disktune::tuner {

/// Why a completed search stopped short of its strategy's end: results::kBaselineOnlyNote for
/// `--max-trials 0`, else "search budget spent (--max-trials N | --time-budget S s) after T
/// trials: the answer is the best of what was measured".
std::string budget_note(const SearchBounds& bounds, std::size_t trials);

/// What to do about a baseline another process disturbed (an error of
/// baseline_changed_behind: its path the device, its op "...: SETTING reads back ..."): stop
/// whatever changes it and run the tune again, which resumes.
std::string concurrent_change_message(const probe::Error& error);

}  // namespace disktune::tuner
