// SPDX-License-Identifier: GPL-2.0-or-later
// The search bounds a tune's journal keeps (--time-budget, --max-trials, --noise-repeats), and what a resume does with them.
#pragma once

#include <boost/json/object.hpp>

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

namespace disktune::tuner {

/// How far a run's search may go and how its noise is measured: the options a resume keeps
/// from the run it resumes (docs/journal.md "What a resume keeps").
struct SearchBounds {
  std::optional<double> time_budget_s;    ///< --time-budget [measurement s]; nullopt: none
  std::optional<std::size_t> max_trials;  ///< --max-trials; nullopt: none
  std::optional<int> noise_repeats;       ///< --noise-repeats; nullopt: not given (a new run takes 2)
};

/// `bounds` into `options` (a start record's measurement options) as "time_budget_s" and
/// "max_trials" (null when none) and "noise_repeats" (`noise_repeats`: the value the run uses).
void record_search_bounds(boost::json::object& options, const SearchBounds& bounds, int noise_repeats);

/// The bounds a resumed run uses: each recorded in `recorded` (the journal's options) that the
/// command line did not give (`given`: nullopt, or for --time-budget and --max-trials none
/// given) is kept, and said on `log` ("kept from the interrupted run: --time-budget 600 s
/// (...)"); a given value equal to the recorded one stands. A bound the journal does not
/// record (a journal from before they were kept) is the command line's. Throws RunError (2)
/// when the command line gives another value than the journal's, naming each with both values:
/// the budget counts the whole run, and a resume that changed it would count against another
/// bound than the one its first part stopped at (run without it to keep the journal's, or
/// --fresh to start over). `path`: the journal, for the messages.
SearchBounds resumed_bounds(const SearchBounds& given, const boost::json::object& recorded, const std::string& path,
                            std::ostream& log);

}  // namespace disktune::tuner
