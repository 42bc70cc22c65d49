// SPDX-License-Identifier: GPL-2.0-or-later
// Report -> boost::json::value, member by member in the documented key order.
#include "results/json_report.hpp"

#include "results/codec/trial_codec.hpp"
#include "results/guard_text.hpp"
#include "strategies/evaluator.hpp"
#include "strategies/guard.hpp"
#include "results/snippet.hpp"

#include <algorithm>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace disktune::results {
namespace {

namespace json = boost::json;

template <class T>
json::value optional_json(const std::optional<T>& value) {
  if (!value) return nullptr;
  return json::value(*value);
}

template <class T>
json::array array_of(const std::vector<T>& values) {
  json::array array;
  for (const auto& value : values) array.emplace_back(value);
  return array;
}

json::value string_or_null(const std::string& text) {
  if (text.empty()) return nullptr;
  return json::value(text);
}

json::object feature_json(const probe::Feature& feature) {
  return {{"supported", feature.supported}, {"enabled", optional_json(feature.enabled)}};
}

json::object features_json(const probe::IdentifyInfo& info) {
  return {{"write_cache", feature_json(info.write_cache)},
          {"look_ahead", feature_json(info.look_ahead)},
          {"apm", feature_json(info.apm)},
          {"aam", feature_json(info.aam)},
          {"lba48", feature_json(info.lba48)}};
}

json::object device_json(const DeviceInfo& device) {
  return {{"path", device.path},         {"model", device.model},
          {"serial", device.serial},     {"firmware", device.firmware},
          {"simulated", device.simulated}, {"stable_path", string_or_null(device.stable_path)},
          {"identify_note", string_or_null(device.identify_note)}, {"size_bytes", device.size_bytes},
          {"wwid", string_or_null(device.wwid)}, {"backing_file", string_or_null(device.backing_file)},
          {"emulated", !device.emulated_by.empty()}, {"emulated_by", string_or_null(device.emulated_by)},
          {"backing_note", string_or_null(device.backing_note)}};
}

// The report's part of the baseline: the codec's trial keys it shows, with the cached-read
// median and the A/A medians under the report's names (the journal keeps the whole codec form).
// The objective's figures of a median and its interval, in the objective's unit (a latency's
// interval bounds swap: the highest score is the lowest latency).
json::object figure_json(const bench::Objective& objective, double median, double ci_low, double ci_high) {
  const bool lower = objective.direction == bench::Direction::lower;
  return {{"median", bench::figure_of(objective, median)},
          {"ci_low", bench::figure_of(objective, lower ? ci_high : ci_low)},
          {"ci_high", bench::figure_of(objective, lower ? ci_low : ci_high)},
          {"unit", bench::unit_of(objective)}};
}

json::object objective_json(const bench::Objective& objective, const std::string& fio_version) {
  return {{"name", objective.name},
          {"fio_version", fio_version.empty() ? json::value(nullptr) : json::value(fio_version)},
          {"engine", objective.engine == bench::Engine::fio ? "fio" : "hdparm-reads"},
          {"metric", bench::to_string(objective.metric)},
          {"unit", bench::unit_of(objective)},
          {"direction", bench::to_string(objective.direction)},
          {"score", objective.direction == bench::Direction::higher ? "the figure" : "1e6 / the figure"}};
}

// A trial's guard keys (a report with a guard objective): guard_figure in the guard's unit
// and guard_note (results/guard_text.hpp; null when it passes).
void add_guard_keys(json::object& o, const strategies::TrialResult& trial, const Report& report) {
  if (!report.guard || !trial.guard) return;
  const auto& g = *trial.guard;
  o["guard_figure"] = figure_json(*report.guard, g.median, g.ci_low, g.ci_high);
  o["guard_note"] = string_or_null(guard_note(*report.guard, trial, report.baseline.trial, report.tolerance));
}

json::object baseline_json(const Report& report) {
  const strategies::Baseline& baseline = report.baseline;
  const bench::Objective& objective = report.objective;
  const json::value trial = json::value_from(baseline.trial);
  const auto& t = trial.as_object();
  json::object o{{"settings", t.at("settings")},
          {"samples", t.at("samples")},
          {"median", t.at("median")},
          {"spread_pct", t.at("spread_pct")},
          {"cached_median_mib_s", baseline.cached_median_mib_s},
          {"ci_low", t.at("ci_low")},
          {"ci_high", t.at("ci_high")},
          {"outliers", t.at("outliers")},
          {"warmup", t.at("warmup")},
          {"aa_samples", array_of(baseline.aa_medians)},
          // null when the run stopped before the baseline was measured: no figure, never a 0.
          {"figure", baseline.trial.median > 0.0
                         ? json::value(figure_json(objective, baseline.trial.median, baseline.trial.ci_low, baseline.trial.ci_high))
                         : json::value(nullptr)}};
  if (const auto* guard = t.if_contains("guard")) o["guard"] = *guard;
  for (const auto* key : {"sample_seconds", "sample_completions", "latency"})
    if (const auto* shapes = t.if_contains(key)) o[key] = *shapes;
  add_guard_keys(o, baseline.trial, report);
  return o;
}

json::array trials_json(const std::vector<strategies::TrialResult>& trials, const Report& report) {
  json::array array;
  for (const auto& trial : trials) {
    json::object o = json::value_from(trial).as_object();
    o["figure"] = figure_json(report.objective, trial.median, trial.ci_low, trial.ci_high);
    add_guard_keys(o, trial, report);
    array.emplace_back(std::move(o));
  }
  return array;
}

// The baseline and the trials: the measured configurations of the Pareto set.
std::vector<strategies::TrialResult> measured(const Report& report) {
  std::vector<strategies::TrialResult> all{report.baseline.trial};
  all.insert(all.end(), report.trials.begin(), report.trials.end());
  return all;
}

json::array guard_excluded(const Report& report) {
  json::array ids;
  for (const auto& trial : report.trials)
    if (trial.status == strategies::TrialStatus::ok &&
        strategies::fails_guard(trial, report.baseline.trial, report.tolerance))
      ids.emplace_back(trial.id);
  return ids;
}

// The guard's top-level keys, appended only with a guard objective (a single-objective
// report keeps its keys): guard_objective, tolerance_pct, pareto, guard_excluded.
void add_guard_report(json::object& o, const Report& report) {
  if (!report.guard) return;
  o["guard_objective"] = objective_json(*report.guard, report.fio_version);
  o["tolerance_pct"] = 100.0 * report.tolerance;
  o["pareto"] = array_of(strategies::pareto_ids(measured(report)));
  o["guard_excluded"] = guard_excluded(report);
}

json::object winner_json(const Report& report) {
  const auto& winner = report.winner;
  json::object o{{"settings", settings_to_json(winner.settings)},
          {"changes", settings_to_json(persisted_changes(report))},
          {"median", winner.median},
          {"spread_pct", winner.spread_pct},
          {"speedup", winner.speedup},
          {"baseline_median", answer_baseline(report).median},
          {"figures_from", answer_baseline(report).source},
          {"keep_baseline", winner.keep_baseline},
          {"trial_id", winner.trial_id},
          {"ci_low", winner.ci_low},
          {"ci_high", winner.ci_high},
          {"confirmed", winner.confirmed},
          {"figure", figure_json(report.objective, winner.median, winner.ci_low, winner.ci_high)}};
  json::array unseparated;
  for (const auto& tied : winner.unseparated)
    unseparated.push_back(json::object{{"trial_id", tied.trial_id}, {"median", tied.median}});
  o["unseparated"] = std::move(unseparated);
  if (winner.tie)
    o["tie"] = json::object{{"faster_trial_id", winner.tie->faster_trial_id},
                            {"faster_median", winner.tie->faster_median},
                            {"rule", winner.tie->rule}};
  return o;
}

json::value confirmation_json(const std::optional<ConfirmationRound>& round, const Report& report) {
  if (!round) return nullptr;
  return json::object{{"rounds", round->rounds},
                      {"results", trials_json(round->results, report)},
                      {"winner_trial_id", round->winner_trial_id},
                      {"noise_pct", round->noise_pct},
                      {"gain_threshold_pct", round->gain_threshold_pct}};
}

}  // namespace

json::value identify_to_json(const probe::IdentifyInfo& info) {
  return json::object{{"model", info.model},
                      {"serial", info.serial},
                      {"firmware", info.firmware},
                      {"device_type", probe::to_string(info.device_type)},
                      {"max_multsect", info.max_multsect},
                      {"multsect", optional_json(info.multsect)},
                      {"lba_sectors", info.lba_sectors},
                      {"dma_supported", info.dma_supported},
                      {"lba_supported", info.lba_supported},
                      {"iordy_supported", info.iordy_supported},
                      {"iordy_can_disable", info.iordy_can_disable},
                      {"pio_modes", array_of(info.pio_modes)},
                      {"sdma_modes", array_of(info.sdma_modes)},
                      {"sdma_active", optional_json(info.sdma_active)},
                      {"mdma_modes", array_of(info.mdma_modes)},
                      {"mdma_active", optional_json(info.mdma_active)},
                      {"udma_modes", array_of(info.udma_modes)},
                      {"udma_active", optional_json(info.udma_active)},
                      {"cable_80wire", optional_json(info.cable_80wire)},
                      {"is_sata", info.is_sata},
                      {"ata_major_versions", array_of(info.ata_major_versions)},
                      {"ata_minor_version", optional_json(info.ata_minor_version)},
                      {"features", features_json(info)},
                      {"checksum", probe::to_string(info.checksum)},
                      {"source", probe::to_string(info.source)},
                      {"warnings", array_of(info.warnings)}};
}

json::value space_to_json(const SpaceInfo& space) {
  json::array dimensions;
  for (const auto& dimension : space.dimensions) {
    json::array values;
    for (const auto& value : dimension.values) values.push_back(value_to_json(dimension.id, value));
    dimensions.push_back(json::object{{"setting", probe::setting_name(dimension.id)},
                                      {"values", std::move(values)}});
  }
  json::array pruned;
  for (const auto& entry : space.pruned)
    pruned.push_back(json::object{{"reason", entry.reason}, {"count", entry.count}});
  json::array unsupported;
  for (const auto& entry : space.unsupported)
    unsupported.push_back(
        json::object{{"setting", probe::setting_name(entry.id)}, {"reason", entry.reason}});
  return json::object{{"dimensions", std::move(dimensions)},
                      {"legal_count", space.legal_count},
                      {"pruned", std::move(pruned)},
                      {"unsupported", std::move(unsupported)}};
}

json::value to_json(const Report& report) {
  json::value identify = nullptr;
  if (report.identify) identify = identify_to_json(*report.identify);
  json::object o{{"schema_version", report.schema_version},
                      {"tool_version", report.tool_version},
                      {"kernel", report.kernel},
                      {"started_at", report.started_at},
                      {"finished_at", report.finished_at},
                      {"strategy", report.strategy},
                      {"objective", objective_json(report.objective, report.fio_version)},
                      {"method", report.method},
                      {"repeats", report.repeats},
                      {"max_repeats", report.max_repeats},
                      {"all_samples", report.all_samples},
                      {"noise_floor_pct", report.noise_floor_pct},
                      {"too_noisy", report.too_noisy},
                      {"noise_detail", report.noise_detail},
                      {"measured_s", report.measured_s},
                      {"wall_s", report.wall_s},
                      {"seed", report.seed},
                      {"options", report.options},
                      {"device", device_json(report.device)},
                      {"identify", std::move(identify)},
                      {"space", space_to_json(report.space)},
                      {"baseline", baseline_json(report)},
                      {"trials", trials_json(report.trials, report)},
                      {"confirmation", confirmation_json(report.confirmation, report)},
                      {"confirmation_skipped", report.confirmation_skipped.empty() ? json::value(nullptr)
                                                                                   : json::value(report.confirmation_skipped)},
                      {"winner", winner_json(report)},
                      {"completed", report.completed},
                      {"stop_reason", report.stop_reason},
                      {"restored", report.restored},
                      {"restore_detail", report.restore_detail},
                      {"wedged", report.wedged},
                      {"wedged_detail", report.wedged_detail},
                      {"integrity_note", report.integrity_note}};
  // The winner rule's thresholds, for a comparison outside the tune (scripts/stock-policies) to
  // judge by the same rule: a gain must exceed the larger of the minimum gain and the noise floor.
  const double min_gain_pct = 100.0 * strategies::EvaluatorOptions{}.min_gain;
  o["min_gain_pct"] = min_gain_pct;
  o["gain_threshold_pct"] = std::max(min_gain_pct, report.noise_floor_pct);
  o["acting"] = json::array(report.acting.begin(), report.acting.end());
  if (!report.unscreened.empty()) o["unscreened"] = json::array(report.unscreened.begin(), report.unscreened.end());
  add_guard_report(o, report);
  return o;
}

std::string JsonEmitter::render(const Report& report) const { return pretty_json(to_json(report)); }

}  // namespace disktune::results
