// SPDX-License-Identifier: GPL-2.0-or-later
// The search scope a resume keeps (search_scope.hpp).
#include "tuner/journal/search_scope.hpp"

#include "probe/core/text.hpp"
#include "tuner/run_error.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

namespace disktune::tuner {
namespace {

namespace json = boost::json;

std::string only_text(const std::optional<std::vector<probe::SettingId>>& only) {
  if (!only) return "none";
  std::vector<std::string> names;
  for (const auto id : *only) names.emplace_back(probe::setting_name(id));
  return probe::joined(names, ",");
}

// The journal's --only: absent (not recorded), null (none), or the settings it names; a name
// this version does not know makes it unreadable, which refuses the resume rather than widen it.
struct RecordedOnly {
  bool recorded = false;
  std::optional<std::vector<probe::SettingId>> only;
};

RecordedOnly recorded_only(const json::object& options, const std::string& path) {
  const auto* value = options.if_contains("only");
  if (!value) return {};
  if (value->is_null()) return {true, std::nullopt};
  std::vector<probe::SettingId> ids;
  if (value->is_array())
    for (const auto& name : value->as_array()) {
      const auto id = name.is_string() ? probe::setting_from_name(std::string(name.as_string())) : std::nullopt;
      if (!id) break;
      ids.push_back(*id);
    }
  if (!value->is_array() || ids.size() != value->as_array().size())
    throw RunError(kExitUsage, "journal " + path + ": its --only (" + probe::one_line(json::serialize(*value)) +
                                   ") names no setting this version knows: will not resume it with a wider search "
                                   "(--fresh sets it aside and starts over)");
  return {true, ids};
}

}  // namespace

void record_search_scope(json::object& options, const SearchScope& scope) {
  if (scope.only) {
    json::array names;
    for (const auto id : *scope.only) names.emplace_back(probe::setting_name(id));
    options["only"] = std::move(names);
  } else {
    options["only"] = nullptr;
  }
  options["safe_only"] = scope.safe_only;
}

SearchScope resumed_scope(const SearchScope& given, const json::object& recorded, const std::string& path,
                          std::ostream& log) {
  SearchScope scope = given;
  std::vector<std::string> kept, differences;
  const auto journal_only = recorded_only(recorded, path);
  if (journal_only.recorded && !given.only) {
    scope.only = journal_only.only;
    if (scope.only) kept.push_back("--only " + only_text(scope.only));
  } else if (journal_only.recorded && given.only != journal_only.only) {
    differences.push_back("--only " + only_text(journal_only.only) + " (journal) vs " + only_text(given.only) +
                          " (command line)");
  }
  if (const auto* safe = recorded.if_contains("safe_only"); safe && safe->is_bool()) {
    if (safe->as_bool() && !given.safe_only) kept.push_back("--safe-only");
    if (!safe->as_bool() && given.safe_only) differences.push_back("--safe-only not given (journal) vs given (command line)");
    scope.safe_only = safe->as_bool() || given.safe_only;
  }
  if (!differences.empty())
    throw RunError(kExitUsage, "journal " + path + " was recorded with another search scope: " +
                                   probe::joined(differences, "; ") +
                                   "; a resume searches the interrupted run's settings: run without them to resume, "
                                   "or with --fresh to set it aside and start over");
  if (!kept.empty()) log << "  kept from the interrupted run: " << probe::joined(kept, ", ") << " (the settings it may change)\n";
  return scope;
}

}  // namespace disktune::tuner
