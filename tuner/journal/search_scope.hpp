// SPDX-License-Identifier: GPL-2.0-or-later
// The settings a tune's journal says it may change (--only, --safe-only), and what a resume does
// with them: a resume run without them must not try settings the interrupted run excluded.
#pragma once

#include "probe/settings.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace disktune::tuner {

/// Which settings a run's search may change: --only SETTING,... (nullopt: every supported one)
/// and --safe-only (the settings that cannot lose data alone).
struct SearchScope {
  std::optional<std::vector<probe::SettingId>> only;
  bool safe_only = false;
};

/// `scope` into `options` (a start record's measurement options) as "only" (hdparm and sysfs
/// setting names in the order given, or null) and "safe_only" (a bool).
void record_search_scope(boost::json::object& options, const SearchScope& scope);

/// The scope a resumed run searches: what `recorded` (the journal's options) holds where the
/// command line (`given`) leaves it out (no --only; no --safe-only), said on `log` ("kept from
/// the interrupted run: --only read_ahead_kb, --safe-only"); the command line's where it gives
/// the same. A journal that records no scope (from before it was kept) resumes with `given`.
/// Throws RunError (2) when the command line gives another --only than the journal's, or
/// --safe-only where the journal has none, naming both: a space changed half-way would mix
/// trials of two searches (run without them to resume, or with --fresh to start over).
/// `path`: the journal, for the messages.
SearchScope resumed_scope(const SearchScope& given, const boost::json::object& recorded, const std::string& path,
                          std::ostream& log);

}  // namespace disktune::tuner
