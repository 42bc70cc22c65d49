// SPDX-License-Identifier: GPL-2.0-or-later
// The baseline of a TrialRunner as the pipeline measures it, for the runner's tests.
#pragma once

#include "strategies/baseline_trials.hpp"
#include "tuner/trial/child_executor.hpp"
#include "tuner/trial/trial_runner.hpp"
#include "tuner/trial/trial_verdict.hpp"

#include <string>

namespace disktune::testing {

/// strategies::obtain_baseline through a ChildExecutor over `runner` and a store of its own:
/// the baseline, or the pipeline's error for it (baseline_error, naming `path`).
inline probe::Result<strategies::Baseline> measure_baseline(tuner::TrialRunner& runner,
                                                            const std::string& path = "the device") {
  tuner::ChildExecutor executor(runner, {});
  strategies::MemoryTrialStore store;
  auto run = strategies::obtain_baseline(executor, store, runner.original(), runner.settings().noise_repeats);
  if (run.failed) return tuner::baseline_error(*run.failed, path, run.stopped);
  return *run.baseline;
}

}  // namespace disktune::testing
