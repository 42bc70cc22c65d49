// SPDX-License-Identifier: GPL-2.0-or-later
// The trial child's report to its parent and its wire format (one JSON text through the watchdog pipe).
#pragma once

#include "strategies/baseline.hpp"

#include <optional>
#include <string>

namespace disktune::tuner {

/// What a trial child (of any kind, a confirmation unit's included) sends back through the
/// watchdog pipe (probe::run_in_child's payload): the trial's measurement, with the cached
/// figure and the data checksum (strategies/baseline.hpp). The same type the report and the
/// journal use, in the same codec (results/codec/trial_codec.hpp).
using ChildReport = strategies::TrialMeasurement;

/// A report whose trial starts ok (a TrialResult starts as error): the child fills it in.
ChildReport ok_report();
/// One report as JSON text (json::value_from, results/codec/trial_codec.hpp).
std::string serialize(const ChildReport& report);
/// One report from serialize's text; nullopt when the text is not one (not JSON, a missing
/// field, an unknown status: a child that died mid-write).
std::optional<ChildReport> deserialize(const std::string& payload);

}  // namespace disktune::tuner
