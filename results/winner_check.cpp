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

// "winner.changes.multcount 99": how every refusal names the change it is about.
std::string change_label(probe::SettingId id, const probe::SettingValue& value) {
  return "winner.changes." + std::string(probe::setting_name(id)) + " " + probe::format_value(id, value);
}

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
    if (out.contains(*id)) return "space.dimensions lists " + std::string(name->as_string()) + " twice";
    for (const auto& v : values->as_array()) {
      auto decoded = settings_from_json(json::object{{name->as_string(), v}});
      if (!decoded) return "space.dimensions: " + decoded.error().reason();
      out[*id].push_back(decoded->begin()->second);
    }
  }
  return "";
}

// Why the winner (the baseline with `changes` over it) is no configuration a tune applies:
// a scheduler tunable without its scheduler (its iosched/ file would not exist), a DMA transfer
// mode without DMA or a PIO one with it (strategies/ata_values.cpp pairs them when both are
// searched; with --only one of them such a trial reads back unstable and never wins), a
// change to a setting the baseline did not read (scheduler tunables come with their scheduler).
std::string inconsistent(const probe::Settings& baseline, const probe::Settings& changes) {
  probe::Settings winner = baseline;
  for (const auto& [id, value] : changes) winner[id] = value;
  for (const auto& [id, value] : changes) {
    const std::string at = change_label(id, value);
    const std::string_view scheduler = probe::setting_info(id).scheduler;
    if (scheduler.empty() && !baseline.contains(id))
      return at + ": the baseline has no " + std::string(probe::setting_name(id)) + " (a tune changes only what it read)";
    if (scheduler.empty()) continue;
    const auto active = winner.find(probe::SettingId::scheduler);
    const bool runs_it = active != winner.end() && !active->second.is_number() && active->second.text() == scheduler;
    if (!runs_it)
      return at + ": a tunable of " + std::string(scheduler) + ", and the winner runs " +
             (active == winner.end() ? std::string("no known scheduler") : probe::format_value(probe::SettingId::scheduler, active->second));
  }
  const auto dma = winner.find(probe::SettingId::using_dma);
  const auto mode = winner.find(probe::SettingId::xfermode);
  const bool touched = changes.contains(probe::SettingId::using_dma) || changes.contains(probe::SettingId::xfermode);
  if (touched && dma != winner.end() && mode != winner.end() &&
      probe::xfermode_is_dma(mode->second.number()) != (dma->second.number() == 1))
    return "winner.changes: xfermode " + probe::format_value(probe::SettingId::xfermode, mode->second) + " with using_dma " +
           std::to_string(dma->second.number()) + " (DMA modes only with using_dma=1, PIO modes only with 0)";
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
  if (!changes) return "winner.changes: " + changes.error().reason();
  Dimensions dimensions;
  if (auto why = decode_dimensions(report, dimensions); !why.empty() && !changes->empty()) return why;
  probe::Settings baseline;
  if (const auto* b = report.if_contains("baseline"); b && b->is_object())
    if (const auto* s = b->as_object().if_contains("settings"))
      if (auto decoded = settings_from_json(*s)) baseline = std::move(*decoded);
  for (const auto& [id, value] : *changes) {
    const std::string at = change_label(id, value);
    if (auto why = probe::settable_value_error(id, value); !why.empty()) return at + ": " + why;
    const auto dimension = dimensions.find(id);
    if (dimension == dimensions.end()) return at + ": the tune did not search " + std::string(probe::setting_name(id));
    if (std::find(dimension->second.begin(), dimension->second.end(), value) == dimension->second.end())
      return at + " is not one of the values the tune searched (" + listed(id, dimension->second) + ")";
    if (const auto found = baseline.find(id); found != baseline.end() && found->second == value)
      return at + " is the baseline's own value: a tune never lists it as a change (the report was edited)";
  }
  return inconsistent(baseline, *changes);
}

}  // namespace disktune::results
