// SPDX-License-Identifier: GPL-2.0-or-later
// TrialSettings for trials run in process (simulated or fake devices, no watchdog child).
#pragma once

#include "tuner/trial/trial_settings.hpp"

namespace disktune::testing {

/// In-process trials reading `workload`, sampled by `plan`, with `confirm_rounds` rounds.
inline tuner::TrialSettings in_process_trial_settings(bench::Workload workload, bench::SamplingPlan plan,
                                                      int confirm_rounds) {
  tuner::TrialSettings s;
  s.workload = workload;
  s.sampling = plan;
  s.in_process = true;
  s.confirm_rounds = confirm_rounds;
  return s;
}

/// The pipeline tests' settings: 256 KiB buffered chunks for 0.2 s, 3-5 adaptive samples, 3 rounds.
inline tuner::TrialSettings pipeline_trial_settings() {
  return in_process_trial_settings(bench::Workload{bench::Method::buffered, 0, 256u << 10, probe::Seconds(0.2)},
                                   bench::SamplingPlan{3, 5, 0.02, true}, 3);
}

}  // namespace disktune::testing
