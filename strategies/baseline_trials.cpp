// SPDX-License-Identifier: GPL-2.0-or-later
// The baseline's trials through the executor and the store.
#include "strategies/baseline_trials.hpp"

#include "bench/stats.hpp"
#include "probe/core/assert.hpp"

#include <utility>

namespace disktune::strategies {
namespace {

// The trial of a baseline-kind run, whether it ended in a measurement or a stop (a signal's
// Stop carries the stopped trial; another stop has none: an error trial says why).
std::pair<TrialMeasurement, bool> measured_or_stopped(Executed ran) {
  if (auto* measured = std::get_if<TrialMeasurement>(&ran)) return {std::move(*measured), false};
  auto& stop = std::get<Stop>(ran);
  TrialMeasurement failed;
  if (stop.trial) failed.trial = std::move(*stop.trial);
  else failed.trial.detail = stop.message;
  if (failed.trial.status == TrialStatus::ok) failed.trial.status = TrialStatus::error;
  return {std::move(failed), stop.reason == StopReason::signal};
}

// One trial of the settings as found (`request`): its measurement, or nullopt with `run` saying
// why it did not end ok.
std::optional<TrialMeasurement> measure_original(TrialExecutor& executor, const probe::Settings& original,
                                                 const TrialRequest& request, BaselineRun& run) {
  auto [measured, stopped] = measured_or_stopped(executor.run(original, request));
  measured.trial.settings = original;
  if (measured.trial.status == TrialStatus::ok) return std::move(measured);
  run.failed = std::move(measured.trial);
  run.stopped = stopped;
  return std::nullopt;
}

// A resumed run's baseline, adopted (its rate sets the limits), then its data checksum read
// again by one quick trial of the settings as found: what later trials must reproduce is what
// the disk holds now.
BaselineRun resumed_baseline(TrialExecutor& executor, const probe::Settings& original, Baseline saved) {
  BaselineRun run;
  run.resumed = true;
  executor.adopt_baseline(saved);
  TrialRequest request;
  request.kind = TrialKind::baseline_check;
  request.quick = true;
  const auto check = measure_original(executor, original, request, run);
  if (!check) return run;
  if (check->data_crc32 != saved.data_crc32) {
    run.checksum_change = ChecksumChange{saved.data_crc32, check->data_crc32};
    saved.data_crc32 = check->data_crc32;
    executor.adopt_baseline(saved);
  }
  run.baseline = std::move(saved);
  return run;
}

}  // namespace

void set_noise(Baseline& baseline, const std::vector<std::vector<double>>& trials, const std::vector<double>& figures) {
  DT_ASSERT(!trials.empty() && trials.size() == figures.size());
  // The figures the search compares (a pooled p99, not the median of per-sample p99s).
  baseline.aa_medians = figures;
  baseline.noise_floor_pct = bench::repeat_noise(trials, figures).pct;
}

Repeats measure_repeats(TrialExecutor& executor, const probe::Settings& original, int count, bool all_samples) {
  Repeats repeats;
  TrialRequest request;
  request.kind = TrialKind::baseline_repeat;
  request.all_samples = all_samples;
  for (int i = 0; i < count; ++i) {
    auto [again, stopped] = measured_or_stopped(executor.run(original, request));
    again.trial.settings = original;
    repeats.measured_s += measurement_seconds(again.trial);
    if (again.trial.status != TrialStatus::ok) {
      repeats.failed = std::move(again.trial);
      repeats.stopped = stopped;
      return repeats;
    }
    repeats.figures.push_back(again.trial.median);
    repeats.samples.push_back(std::move(again.trial.samples));
  }
  return repeats;
}

BaselineRun obtain_baseline(TrialExecutor& executor, TrialStore& store, const probe::Settings& original, int repeats) {
  BaselineRun run;
  if (auto saved = store.saved_baseline()) return resumed_baseline(executor, original, std::move(*saved));
  TrialRequest request;
  request.kind = TrialKind::baseline;
  auto first = measure_original(executor, original, request, run);
  if (!first) return run;
  Baseline baseline;
  static_cast<TrialMeasurement&>(baseline) = std::move(*first);
  executor.adopt_baseline(baseline);
  auto again = measure_repeats(executor, original, repeats, false);
  if (again.failed) {
    run.failed = std::move(again.failed);
    run.stopped = again.stopped;
    return run;
  }
  again.samples.insert(again.samples.begin(), baseline.trial.samples);
  again.figures.insert(again.figures.begin(), baseline.trial.median);
  set_noise(baseline, again.samples, again.figures);
  baseline.measured_s = measurement_seconds(baseline.trial) + again.measured_s;
  run.stop = store.record_baseline(baseline);  // a full disk: the baseline still counts for the report
  run.baseline = std::move(baseline);
  return run;
}

}  // namespace disktune::strategies
