// SPDX-License-Identifier: GPL-2.0-or-later
// The trial child's report to its parent and its wire format (one JSON text through the watchdog pipe).
#pragma once

#include "strategies/trial.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace disktune::tuner {

/// What a trial (or one contender of a confirmation round) child sends back through the
/// watchdog pipe (probe::run_in_child's payload).
struct ChildReport {
  strategies::TrialStatus status = strategies::TrialStatus::ok;
  std::vector<double> samples;  ///< kept samples [MiB/s]
  double cached_mib_s = 0.0;    ///< cached-read median [MiB/s]; 0 when not measured
  std::uint32_t crc = 0;        ///< CRC-32 of the fixed block sample (0 when not read)
  std::string detail;           ///< why the status is not ok ("" when ok)
  double warmup_mib_s = 0.0;    ///< the warm-up sample [MiB/s]; 0 when none
  std::string stop;             ///< bench::to_string of the sampling stop ("" when not sampled)
  double measured_s = 0.0;      ///< measurement time [s; virtual when simulated]
};

/// The report as a JSON object: {"status": name, "samples": [MiB/s...], "cached", "crc",
/// "detail", "warmup", "stop", "measured_s"}.
boost::json::object to_object(const ChildReport& report);
/// The report back from to_object's shape; an unknown status name reads as error.
/// Errors: throws boost::system::system_error (Boost.JSON's at/as) when a member is missing
/// or has another type: the caller parsed text its own child wrote.
ChildReport from_object(const boost::json::object& object);
/// One report as JSON text.
std::string serialize(const ChildReport& report);
/// One report from serialize's text; nullopt when the text is not a JSON object.
std::optional<ChildReport> deserialize(const std::string& payload);
/// A confirmation round's reports (one per contender, in order) as a JSON array text.
std::string serialize_reports(const std::vector<ChildReport>& reports);
/// serialize_reports' text back; nullopt unless it is an array of exactly `count` objects.
std::optional<std::vector<ChildReport>> deserialize_reports(const std::string& payload, std::size_t count);

}  // namespace disktune::tuner
