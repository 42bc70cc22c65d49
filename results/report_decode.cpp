// SPDX-License-Identifier: GPL-2.0-or-later
// snippet_report (report_decode.hpp): a lenient decoder of the report fields snippets quote;
// html_report_shape_error: the strict check of the sections the HTML page reads.
#include "results/report_decode.hpp"

#include "results/codec/settings_codec.hpp"
#include "results/codec/trial_codec.hpp"
#include "results/json_numbers.hpp"
#include "results/winner_check.hpp"

#include <boost/json.hpp>

namespace disktune::results {
namespace json = boost::json;
namespace {

// Why `key` of `o` (called `name`) is not absent, null or an array of objects; "" when it is.
std::string not_list_of_objects(const json::object& o, const std::string& key, const std::string& name) {
  const auto* v = o.if_contains(key);
  if (!v || v->is_null()) return "";
  if (!v->is_array()) return name + " is not a list";
  for (const auto& one : v->as_array())
    if (!one.is_object()) return name + " holds a " + std::string(one.is_null() ? "null" : "non-object") + " entry";
  return "";
}

std::string text_of(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}
double number_of(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_number()) v = o.if_contains(std::string(key) + "_mib_s");  // schema 1
  return v && v->is_number() ? v->to_number<double>() : 0.0;
}
bool flag_of(const json::object& o, std::string_view key, bool fallback) {
  const auto* v = o.if_contains(key);
  return v && v->is_bool() ? v->as_bool() : fallback;
}
const json::object& object_of(const json::object& o, std::string_view key) {
  static const json::object empty;
  const auto* v = o.if_contains(key);
  return v && v->is_object() ? v->as_object() : empty;
}
probe::Settings settings_of(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v) return {};
  auto settings = settings_from_json(*v);
  return settings ? *settings : probe::Settings{};
}
std::vector<strategies::TrialResult> trials_of(const json::object& o, std::string_view key) {
  std::vector<strategies::TrialResult> trials;
  const auto* v = o.if_contains(key);
  if (!v || !v->is_array()) return trials;
  for (const auto& one : v->as_array())
    if (auto trial = decode<strategies::TrialResult>(one)) trials.push_back(std::move(*trial));
  return trials;
}

DeviceInfo device_of(const json::object& d) {
  DeviceInfo device;
  device.path = text_of(d, "path");
  device.model = text_of(d, "model");
  device.serial = text_of(d, "serial");
  device.firmware = text_of(d, "firmware");
  device.simulated = flag_of(d, "simulated", false);
  device.stable_path = text_of(d, "stable_path");
  device.wwid = text_of(d, "wwid");
  device.backing_file = text_of(d, "backing_file");
  device.emulated_by = text_of(d, "emulated_by");
  device.backing_note = text_of(d, "backing_note");
  return device;
}

Winner winner_of(const json::object& w) {
  Winner winner;
  winner.settings = settings_of(w, "settings");
  winner.changes = settings_of(w, "changes");
  winner.median = number_of(w, "median");
  winner.spread_pct = number_of(w, "spread_pct");
  winner.speedup = number_of(w, "speedup");
  winner.keep_baseline = flag_of(w, "keep_baseline", true) || winner.changes.empty();
  winner.ci_low = number_of(w, "ci_low");
  winner.ci_high = number_of(w, "ci_high");
  winner.confirmed = flag_of(w, "confirmed", false);
  if (const auto* id = w.if_contains("trial_id"); id && id->is_int64()) winner.trial_id = static_cast<int>(id->as_int64());
  if (const auto* tie = w.if_contains("tie"); tie && tie->is_object()) {
    const auto& t = tie->as_object();
    strategies::TieBreak broken{0, number_of(t, "faster_median"), text_of(t, "rule")};
    if (const auto* id = t.if_contains("faster_trial_id"); id && id->is_int64())
      broken.faster_trial_id = static_cast<int>(id->as_int64());
    winner.tie = broken;
  }
  if (const auto* tied = w.if_contains("unseparated"); tied && tied->is_array())
    for (const auto& entry : tied->as_array())
      if (entry.is_object()) {
        strategies::Unseparated one{0, number_of(entry.as_object(), "median")};
        if (const auto* id = entry.as_object().if_contains("trial_id"); id && id->is_int64())
          one.trial_id = static_cast<int>(id->as_int64());
        winner.unseparated.push_back(one);
      }
  return winner;
}

}  // namespace

Report snippet_report(const json::value& value) {
  Report report;
  if (!value.is_object()) return report;
  const auto& o = value.as_object();
  report.tool_version = text_of(o, "tool_version");
  report.finished_at = text_of(o, "finished_at");
  report.strategy = text_of(o, "strategy");
  report.method = text_of(o, "method");
  if (const auto* seed = o.if_contains("seed"); seed && seed->is_number()) report.seed = seed->to_number<std::uint64_t>();
  report.repeats = static_cast<int>(number_of(o, "repeats"));
  report.max_repeats = static_cast<int>(number_of(o, "max_repeats"));
  report.all_samples = flag_of(o, "all_samples", false);
  const auto& objective = object_of(o, "objective");
  if (auto parsed = bench::parse_objective(text_of(objective, "name"), ""); parsed && !text_of(objective, "name").empty())
    report.objective = *parsed;
  report.device = device_of(object_of(o, "device"));
  const auto& baseline = object_of(o, "baseline");
  report.baseline.trial.settings = settings_of(baseline, "settings");
  report.baseline.trial.median = number_of(baseline, "median");
  report.baseline.trial.spread_pct = number_of(baseline, "spread_pct");
  report.baseline.trial.status = strategies::TrialStatus::ok;
  report.trials = trials_of(o, "trials");
  if (const auto& c = object_of(o, "confirmation"); !c.empty()) {
    report.confirmation = ConfirmationRound{static_cast<int>(number_of(c, "rounds")), trials_of(c, "results"), 0};
    report.confirmation->winner_trial_id = static_cast<int>(number_of(c, "winner_trial_id"));
    report.confirmation->noise_pct = number_of(c, "noise_pct");  // 0 in a report before these fields
    report.confirmation->gain_threshold_pct = number_of(c, "gain_threshold_pct");
  }
  report.winner = winner_of(object_of(o, "winner"));
  report.completed = flag_of(o, "completed", false);
  report.too_noisy = flag_of(o, "too_noisy", false);
  return report;
}

std::string html_report_shape_error(const json::object& o) {
  if (auto refusal = non_finite_refusal(o)) return std::move(*refusal);
  const auto* schema = o.if_contains("schema_version");
  if (!schema || !schema->is_int64()) return "no schema_version (a number): not a disktune report";
  if (schema->as_int64() < 1 || schema->as_int64() > results::kSchemaVersion)
    return "schema_version " + json::serialize(*schema) + " is not one this disktune writes (1-" +
           std::to_string(results::kSchemaVersion) + ")";
  for (const char* key : {"device", "baseline"})
    if (const auto* v = o.if_contains(key); !v || !v->is_object()) return std::string(key) + " is not an object";
  if (const auto* w = o.if_contains("winner"); w && !w->is_null() && !w->is_object()) return "winner is not an object";
  if (auto why = not_list_of_objects(o, "trials", "trials"); !why.empty()) return why;
  if (const auto* c = o.if_contains("confirmation"); c && !c->is_null()) {
    if (!c->is_object()) return "confirmation is not an object";
    if (auto why = not_list_of_objects(c->as_object(), "results", "confirmation.results"); !why.empty()) return why;
  }
  return winner_changes_error(o);  // the page's snippets are commands: never from a hand-edited winner
}

}  // namespace disktune::results
