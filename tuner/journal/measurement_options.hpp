// SPDX-License-Identifier: GPL-2.0-or-later
// The options that shape a measurement, as a journal's start record and the report keep them.
#pragma once

#include "tuner/trial/trial_settings.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace disktune::tuner {

/// Every option that shapes a measurement, as the start record and the report keep them:
/// the objective, metric and guard, tolerance_pct (`tolerance` is a fraction: 0.05 = 5 %),
/// strategy, seed, repeats, max_repeats, duration_s, method, chunk_bytes, confirm_rounds,
/// and `command_line` (argv as given: recorded, not compared).
boost::json::object measurement_options(const TrialSettings& trial, const std::string& strategy, std::uint64_t seed,
                                        double tolerance, const std::vector<std::string>& command_line);

}  // namespace disktune::tuner
