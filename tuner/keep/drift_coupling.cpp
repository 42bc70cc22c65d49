// SPDX-License-Identifier: GPL-2.0-or-later
// coupling_cause (drift_coupling.hpp).
#include "tuner/keep/drift_coupling.hpp"

namespace disktune::tuner {
namespace {

using probe::SettingId;

std::string number_text(std::int64_t n) { return std::to_string(n); }

// read_ahead_kb (factor 1) or readahead (sectors, factor 2) at twice max_sectors_kb.
std::string raised_by_max_sectors(SettingId id, const probe::SettingValue& live, const probe::SettingValue& expected,
                                  const LiveReader& read) {
  const auto max_sectors = read(SettingId::max_sectors_kb);
  if (!max_sectors || !max_sectors->is_number() || !live.is_number() || !expected.is_number()) return "";
  const std::int64_t per_kb = id == SettingId::readahead ? 2 : 1;
  const std::int64_t raised = 2 * max_sectors->number() * per_kb;
  if (live.number() != raised || live.number() <= expected.number()) return "";
  return std::string(probe::setting_name(id)) + " reads " + number_text(live.number()) + " = 2 x max_sectors_kb " +
         number_text(max_sectors->number()) + (per_kb == 2 ? " KiB in 512-byte sectors" : "") +
         ": a write to max_sectors_kb raises read_ahead_kb to twice the new value on this kernel (a udev rule, a "
         "tool or a tune may have written it)";
}

// The scheduler the apply left: the report's change, else nothing known.
std::optional<probe::SettingValue> applied_scheduler(const probe::Settings& applied) {
  const auto it = applied.find(SettingId::scheduler);
  if (it == applied.end()) return std::nullopt;
  return it->second;
}

std::string switched_scheduler(SettingId id, const probe::Settings& applied, const LiveReader& read) {
  const auto now = read(SettingId::scheduler);
  const auto then = applied_scheduler(applied);
  if (!now || now->is_number() || !then || *now == *then) return "";
  const std::string what = id == SettingId::nr_requests ? "resets nr_requests" : "removes the old scheduler's tunables";
  return "the scheduler is " + now->text() + " now, not the report's " + then->text() + ": a scheduler switch " + what;
}

std::string tunable_reset(SettingId id, const probe::SettingValue& live, const probe::SettingValue& expected) {
  if (!probe::is_scheduler_tunable(id) || live != probe::tunable_default(id) || expected == live) return "";
  const std::string scheduler(probe::setting_info(id).scheduler);
  return std::string(probe::setting_name(id)) + " reads " + scheduler + "'s default, which a switch to " + scheduler +
         " sets: the scheduler may have been switched away and back";
}

}  // namespace

Coupling coupling_cause(SettingId id, const std::optional<probe::SettingValue>& live,
                        const probe::SettingValue& expected, const probe::Settings& applied, const LiveReader& read) {
  if (id == SettingId::nr_requests || probe::is_scheduler_tunable(id)) {
    if (auto switched = switched_scheduler(id, applied, read); !switched.empty()) return {switched, true};
    return {live ? tunable_reset(id, *live, expected) : "", false};
  }
  if (!live) return {};
  if (id == SettingId::read_ahead_kb || id == SettingId::readahead)
    return {raised_by_max_sectors(id, *live, expected, read), false};
  return {};
}

}  // namespace disktune::tuner
