// SPDX-License-Identifier: GPL-2.0-or-later
// What every trial of a tune measures and how long it may take, from the tune's options.
#pragma once

#include "bench/objective.hpp"
#include "tuner/run/tune_options.hpp"
#include "tuner/trial/trial_settings.hpp"

#include <vector>

namespace disktune::tuner {

/// The TrialSettings of a tune: its workload (hdparm-style 2 MiB reads, the steady stop on a
/// real device unless --full-samples), adaptive sampling (--repeats, --max-repeats; on a real
/// device a configuration reading under 0.75x the incumbent's lower bound twice stops early),
/// the first baseline child's time limit (--trial-timeout, or derived from the sample shape
/// and --stall-timeout; a simulated drive's from its virtual seconds), --noise-repeats,
/// --allow-mounted (data in use), the stop request, and `objectives` ([0] optimised, [1] the
/// optional guard; ready_objectives has resolved their metrics).
TrialSettings trial_settings_for(const TuneOptions& tune, bool simulated, const std::vector<bench::Objective>& objectives);

}  // namespace disktune::tuner
