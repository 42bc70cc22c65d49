// SPDX-License-Identifier: GPL-2.0-or-later
// Journal records as they are written: each record type's JSON object (results/journal.cpp
// encodes, decodes and interprets them).
#include "results/journal.hpp"

#include "results/codec/settings_codec.hpp"
#include "results/codec/trial_codec.hpp"
#include "results/codec/tunables_codec.hpp"

#include <boost/json.hpp>

namespace disktune::results {
namespace {

namespace json = boost::json;

json::array contenders_to_json(const std::vector<probe::Settings>& contenders) {
  json::array out;
  for (const auto& c : contenders) out.push_back(settings_to_json(c));
  return out;
}

// {type: "result", boot_id, baseline} followed by the codec's keys of `datum`.
template <class T>
json::value result_of(const T& datum, const std::string& boot_id, bool baseline) {
  json::object record{{"type", "result"}, {"boot_id", boot_id}, {"baseline", baseline}};
  const json::value fields = json::value_from(datum);
  for (const auto& [key, value] : fields.as_object()) record.emplace(key, value);
  return record;
}

}  // namespace

json::value start_record(const JournalIdentity& id, const std::string& boot_id, const std::string& started_at,
                         const probe::Settings& original, const json::object& options,
                         const probe::SchedulerTunables& tunables) {
  json::object record{{"type", "start"},
                      {"boot_id", boot_id},
                      {"started_at", started_at},
                      {"device", identity_to_json(id)},
                      {"original", settings_to_json(original)},
                      {"options", options}};
  if (!tunables.scheduler.empty()) record["scheduler_tunables"] = tunables_to_json(tunables);
  return record;
}

json::value intent_record(const probe::Settings& config, bool quick, const std::string& boot_id) {
  return json::object{{"type", "intent"}, {"boot_id", boot_id}, {"settings", settings_to_json(config)}, {"quick", quick}};
}

json::value result_record(const strategies::TrialResult& trial, const std::string& boot_id) {
  return result_of(trial, boot_id, false);
}

json::value result_record(const strategies::Baseline& baseline, const std::string& boot_id) {
  return result_of(baseline, boot_id, true);
}

json::value end_record(bool restored, const std::string& finished_at, const std::string& boot_id) {
  return json::object{{"type", "end"}, {"boot_id", boot_id}, {"restored", restored}, {"finished_at", finished_at}};
}

json::value apply_record(const probe::Settings& settings, bool done, const std::string& report, const std::string& at,
                         const std::string& boot_id, const std::optional<KernelLogMark>& mark) {
  json::object record{{"type", "apply"}, {"boot_id", boot_id}, {"settings", settings_to_json(settings)},
                      {"done", done}, {"report", report}, {"at", at}};
  if (mark) record["kernel_log"] = json::object{{"seq", mark->seq}, {"monotonic_usec", mark->monotonic_usec}};
  return record;
}

json::value restore_record(const std::string& restored_at, const std::string& boot_id, bool stopped) {
  json::object record{{"type", "restore"}, {"boot_id", boot_id}, {"restored_at", restored_at}};
  if (stopped) record["stopped"] = true;
  return record;
}

json::value round_intent_record(const std::vector<probe::Settings>& contenders, int round,
                                const std::string& boot_id) {
  return json::object{{"type", "round_intent"}, {"boot_id", boot_id}, {"contenders", contenders_to_json(contenders)},
                      {"round", round}};
}

json::value unit_intent_record(const std::vector<probe::Settings>& contenders, int round, int pass, std::size_t unit,
                               const std::string& boot_id) {
  return json::object{{"type", "unit_intent"}, {"boot_id", boot_id}, {"contenders", contenders_to_json(contenders)},
                      {"round", round}, {"pass", pass}, {"unit", unit}};
}

json::value baseline_intent_record(strategies::TrialKind kind, int index, const std::string& boot_id) {
  return json::object{{"type", "baseline_intent"}, {"boot_id", boot_id}, {"kind", strategies::to_string(kind)},
                      {"index", index}};
}

json::value round_result_record(const std::vector<probe::Settings>& contenders, int round,
                                const std::vector<strategies::TrialResult>& results, const std::string& skipped,
                                const std::string& boot_id) {
  return json::object{{"type", "round_result"}, {"boot_id", boot_id}, {"contenders", contenders_to_json(contenders)},
                      {"round", round}, {"results", json::value_from(results)}, {"skipped", skipped}};
}

}  // namespace disktune::results
