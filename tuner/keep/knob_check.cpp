// SPDX-License-Identifier: GPL-2.0-or-later
// check_knob: one setting's live value against a report's, and what explains a difference.
#include "tuner/keep/knob_check.hpp"

#include "tuner/keep/drift_coupling.hpp"

namespace disktune::tuner {
namespace {

// Without an apply on record: what was read instead, never a guess at what happened (an apply
// journal verify was not given may hold an apply and a restore). The report's own record of
// its tune's end is named for a value back at the one the tune found.
std::string no_apply_text(const DriftEvidence& drift, const results::SavedReport& report, bool original) {
  std::string text = drift.no_apply.empty() ? "no apply record read" : drift.no_apply;
  if (original && report.restored.value_or(false))
    text += "; the report records that its tune put back what it found when it ended ('disktune apply' sets the "
            "report's values)";
  return text;
}

}  // namespace

KnobCheck check_knob(probe::Device& device, probe::SettingId id, const probe::SettingValue& expected,
                     const results::SavedReport& report, const DriftEvidence& drift) {
  KnobCheck knob{id, probe::format_value(id, expected), "", false, "", ""};
  const auto live = device.read(id);
  const LiveReader read = [&device](probe::SettingId other) -> std::optional<probe::SettingValue> {
    auto value = device.read(other);
    return value ? std::optional(*value) : std::nullopt;
  };
  const auto coupling =
      coupling_cause(id, live ? std::optional(*live) : std::nullopt, expected,
                     probe::with_changes(report.baseline, report.changes), read);
  if (!live) {
    knob.cause = "cannot be read: " + live.error().message() + (coupling.text.empty() ? "" : "; " + coupling.text);
    knob.evidence = coupling.certain ? coupling.text : "";
    return knob;
  }
  knob.actual = probe::format_value(id, *live);
  knob.ok = *live == expected;
  if (knob.ok) return knob;
  const auto before = report.baseline.find(id);
  const bool original = before != report.baseline.end() && before->second == *live;
  const auto found = drift_cause(drift, id);
  // A certain coupling is evidence; a value that only matches one (the kernel's own default can:
  // a loop device starts at 2 x max_sectors_kb) is named as a possibility beside the evidence.
  const std::string certain = coupling.certain ? coupling.text : "";
  knob.evidence = certain.empty() ? found : found.empty() ? certain : certain + "; " + found;
  const std::string possible = !coupling.certain && !coupling.text.empty() ? "; possibly a kernel coupling: " + coupling.text : "";
  const std::string back = original ? "back at the value its tune found (the baseline); " : "";
  if (!knob.evidence.empty())
    knob.cause = back + knob.evidence + possible;
  else if (!drift.applied_at.empty())
    knob.cause = (original ? back + "nothing shows what put it back" : "cause unknown") + possible;
  else
    knob.cause = (original ? back : "cause unknown; ") + no_apply_text(drift, report, original) + possible;
  return knob;
}

}  // namespace disktune::tuner
