// SPDX-License-Identifier: GPL-2.0-or-later
// What a tune searches within (resume_kept.hpp).
#include "tuner/run/resume_kept.hpp"

namespace disktune::tuner {

Kept kept_on_resume(const RunJournal& journal, const SearchBounds& given, const SearchScope& given_scope,
                    TrialSettings& trial_settings, boost::json::object& options, std::ostream& log) {
  Kept kept{given, given_scope};
  if (journal.resumed()) {
    kept.bounds = resumed_bounds(given, journal.options(), journal.path(), log);
    kept.scope = resumed_scope(given_scope, journal.options(), journal.path(), log);
  }
  trial_settings.noise_repeats = kept.bounds.noise_repeats.value_or(trial_settings.noise_repeats);
  record_search_bounds(options, kept.bounds, trial_settings.noise_repeats);
  record_search_scope(options, kept.scope);
  return kept;
}

}  // namespace disktune::tuner
