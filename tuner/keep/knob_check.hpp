// SPDX-License-Identifier: GPL-2.0-or-later
// check_knob: one setting's live value against a report's, and what explains a difference.
#pragma once

#include "probe/device.hpp"
#include "probe/settings.hpp"
#include "results/saved_report.hpp"
#include "tuner/keep/drift_cause.hpp"

#include <string>

namespace disktune::tuner {

/// One setting of a report as `verify` found it on the drive.
struct KnobCheck {
  probe::SettingId id;
  std::string expected, actual;  ///< probe::format_value text; actual empty when unreadable
  bool ok = false;               ///< the live value is the expected one
  std::string cause;             ///< for a drift: what it is and the evidence, or "cause unknown"
  std::string evidence;          ///< the evidence alone (drift_cause, a certain coupling); "" when there is none
};

/// Read setting `id` from `device` and compare it with `expected` (the report's winner).
/// A difference gets a cause: "back at the value its tune found (the baseline)" when it equals
/// report.baseline's value, then the evidence: a kernel coupling that forces it
/// (coupling_cause, drift_coupling.hpp: certain, or named as a possibility), or `drift`'s
/// events (drift_cause: a command holding the device, a restore, a reboot, a resume, a port
/// reset, a udev event), else "nothing shows what put it back" / "cause unknown" after an
/// apply read from its journal, or, with none read, what was found instead (drift.no_apply)
/// and, for a value back at the baseline's, the report's record that its tune put back what
/// it found ("restored"). An unreadable setting: not ok, cause "cannot be read: <error>". No
/// errors of its own; reads only.
KnobCheck check_knob(probe::Device& device, probe::SettingId id, const probe::SettingValue& expected,
                     const results::SavedReport& report, const DriftEvidence& drift);

}  // namespace disktune::tuner
