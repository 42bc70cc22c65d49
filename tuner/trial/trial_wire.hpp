// SPDX-License-Identifier: GPL-2.0-or-later
// The trial child's report to its parent and its wire format (one JSON text through the watchdog pipe).
#pragma once

#include "strategies/baseline.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace disktune::tuner {

/// What a trial (or one contender of a confirmation round) child sends back through the
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
/// A confirmation round's reports (one per contender, in order) as a JSON array text.
std::string serialize_reports(const std::vector<ChildReport>& reports);
/// serialize_reports' text back; nullopt unless it is an array of exactly `count` reports.
std::optional<std::vector<ChildReport>> deserialize_reports(const std::string& payload, std::size_t count);

}  // namespace disktune::tuner
