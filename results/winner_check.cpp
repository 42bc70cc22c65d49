// SPDX-License-Identifier: GPL-2.0-or-later
// winner_changes_error (winner_check.hpp): winner.changes checked against the report's own space.
#include "results/winner_check.hpp"

#include "results/codec/settings_codec.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace disktune::results {
namespace json = boost::json;
namespace {

using Dimensions = std::map<probe::SettingId, std::vector<probe::SettingValue>>;

// space.dimensions as values by setting; a dimension that does not decode is a reason.
std::string decode_dimensions(const json::object& report, Dimensions& out) {
  const auto* space = report.if_contains("space");
  const auto* dims = space && space->is_object() ? space->as_object().if_contains("dimensions") : nullptr;
  if (!dims || !dims->is_array()) return "space.dimensions is missing: nothing shows which values the tune searched";
  for (const auto& one : dims->as_array()) {
    const auto* d = one.if_object();
    const auto* name = d ? d->if_contains("setting") : nullptr;
    const auto* values = d ? d->if_contains("values") : nullptr;
    const auto id = name && name->is_string() ? probe::setting_from_name(name->as_string()) : std::nullopt;
    if (!id || !values || !values->is_array()) return "space.dimensions holds an entry that is no {setting, values}";
    for (const auto& v : values->as_array()) {
      auto decoded = settings_from_json(json::object{{name->as_string(), v}});
      if (!decoded) return "space.dimensions: " + decoded.error().message();
      out[*id].push_back(decoded->begin()->second);
    }
  }
  return "";
}

std::string listed(probe::SettingId id, const std::vector<probe::SettingValue>& values) {
  std::string text;
  for (const auto& v : values) text += (text.empty() ? "" : ", ") + probe::format_value(id, v);
  return text;
}

}  // namespace

std::string winner_changes_error(const json::object& report) {
  const auto* winner = report.if_contains("winner");
  if (!winner || !winner->is_object()) return "";
  const auto& w = winner->as_object();
  if (const auto* keep = w.if_contains("keep_baseline"); keep && keep->is_bool() && keep->as_bool()) return "";
  const auto* changes_json = w.if_contains("changes");
  if (!changes_json) return "winner.changes is missing";
  auto changes = settings_from_json(*changes_json);
  if (!changes) return "winner.changes: " + changes.error().message();
  Dimensions dimensions;
  if (auto why = decode_dimensions(report, dimensions); !why.empty() && !changes->empty()) return why;
  probe::Settings baseline;
  if (const auto* b = report.if_contains("baseline"); b && b->is_object())
    if (const auto* s = b->as_object().if_contains("settings"))
      if (auto decoded = settings_from_json(*s)) baseline = std::move(*decoded);
  for (const auto& [id, value] : *changes) {
    const std::string at = "winner.changes." + std::string(probe::setting_name(id)) + " " + probe::format_value(id, value);
    if (auto why = probe::settable_value_error(id, value); !why.empty()) return at + ": " + why;
    const auto dimension = dimensions.find(id);
    if (dimension == dimensions.end()) return at + ": the tune did not search " + std::string(probe::setting_name(id));
    if (std::find(dimension->second.begin(), dimension->second.end(), value) == dimension->second.end())
      return at + " is not one of the values the tune searched (" + listed(id, dimension->second) + ")";
    if (const auto found = baseline.find(id); found != baseline.end() && found->second == value)
      return at + " is the baseline's own value: a tune never lists it as a change (the report was edited)";
  }
  return "";
}

}  // namespace disktune::results
