// SPDX-License-Identifier: GPL-2.0-or-later
// check_knob: one setting's live value against a report's, and what explains a difference.
#include "tuner/keep/knob_check.hpp"

#include "tuner/keep/drift_coupling.hpp"

namespace disktune::tuner {

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
  // No apply on record: the tune itself put the value back when it ended, as it always does.
  const std::string unexplained = drift.applied_at.empty() ? "no apply is recorded: the tune put back what it found "
                                                             "when it ended ('disktune apply' sets the report's values)"
                                                           : "nothing shows what put it back";
  if (original)
    knob.cause = "back at its value before the tune; " + (knob.evidence.empty() ? unexplained : knob.evidence) + possible;
  else
    knob.cause = (knob.evidence.empty() ? "cause unknown" : knob.evidence) + possible;
  return knob;
}

}  // namespace disktune::tuner
