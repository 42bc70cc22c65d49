// SPDX-License-Identifier: GPL-2.0-or-later
// What a tune searches within, a resumed run's taken from the run it resumes.
#pragma once

#include "tuner/journal/run_journal.hpp"
#include "tuner/journal/search_bounds.hpp"
#include "tuner/journal/search_scope.hpp"
#include "tuner/trial/trial_settings.hpp"

#include <boost/json/object.hpp>

#include <ostream>

namespace disktune::tuner {

/// The bounds and the scope a run searches within.
struct Kept {
  SearchBounds bounds;
  SearchScope scope;
};

/// A new run's `given` bounds and scope; a resumed run (`journal.resumed()`) keeps the
/// interrupted run's bounds (resumed_bounds: its budget counts what that run measured) and the
/// settings it may change (resumed_scope: a resume without --safe-only must not try risky
/// ones). Both are recorded in `options` (the report's), the noise repeats set in
/// `trial_settings`. Throws RunError (2) as resumed_bounds and resumed_scope do.
Kept kept_on_resume(const RunJournal& journal, const SearchBounds& given, const SearchScope& given_scope,
                    TrialSettings& trial_settings, boost::json::object& options, std::ostream& log);

}  // namespace disktune::tuner
