// SPDX-License-Identifier: GPL-2.0-or-later
// The baseline's trials through the executor and the store.
#include "strategies/baseline_trials.hpp"

#include "bench/stats.hpp"
#include "probe/core/assert.hpp"

#include <utility>

namespace disktune::strategies {
namespace {

// The trial of a baseline-kind run, whether it ended in a measurement or a stop (a signal's
// Stop carries the stopped trial; another stop has none: an error trial says why), and the stop.
std::pair<TrialMeasurement, std::optional<Stop>> measured_or_stopped(Executed ran) {
  if (auto* measured = std::get_if<TrialMeasurement>(&ran)) return {std::move(*measured), std::nullopt};
  auto& stop = std::get<Stop>(ran);
  TrialMeasurement failed;
  if (stop.trial) failed.trial = std::move(*stop.trial);
  else failed.trial.detail = stop.message;
  if (failed.trial.status == TrialStatus::ok) failed.trial.status = TrialStatus::error;
  stop.trial.reset();
  return {std::move(failed), std::move(stop)};
}

bool by_signal(const std::optional<Stop>& stop) { return stop && stop->reason == StopReason::signal; }

// A record that could not be written ends the run as a stop, not as a fault of the device.
std::optional<Stop> store_failure(std::optional<Stop> stop) {
  if (stop && stop->reason == StopReason::store_failed) return stop;
  return std::nullopt;
}

// One trial of the settings as found, number `index` of its kind, after its intent record: its
// measurement, or the stop it (or the record) ran into.
Executed run_original(TrialExecutor& executor, TrialStore& store, const probe::Settings& original,
                      const TrialRequest& request, int index) {
  if (auto failed = store.begin_baseline(request.kind, index)) return std::move(*failed);
  return executor.run(original, request);
}

// One trial of the settings as found (`request`, the first of its kind): its measurement, or
// nullopt with `run` saying why it did not end ok.
std::optional<TrialMeasurement> measure_original(TrialExecutor& executor, TrialStore& store,
                                                 const probe::Settings& original, const TrialRequest& request,
                                                 BaselineRun& run) {
  auto [measured, stop] = measured_or_stopped(run_original(executor, store, original, request, 0));
  measured.trial.settings = original;
  if (measured.trial.status == TrialStatus::ok) return std::move(measured);
  run.failed = std::move(measured.trial);
  run.stopped = by_signal(stop);
  run.stop = store_failure(std::move(stop));
  return std::nullopt;
}

// A resumed run's baseline, adopted (its rate sets the limits), then its data checksum read
// again by one quick trial of the settings as found: what later trials must reproduce is what
// the disk holds now.
BaselineRun resumed_baseline(TrialExecutor& executor, TrialStore& store, const probe::Settings& original,
                             Baseline saved) {
  BaselineRun run;
  run.resumed = true;
  executor.adopt_baseline(saved);
  TrialRequest request;
  request.kind = TrialKind::baseline_check;
  request.quick = true;
  const auto check = measure_original(executor, store, original, request, run);
  if (!check) return run;
  if (check->data_crc32 != saved.data_crc32) {
    run.checksum_change = ChecksumChange{saved.data_crc32, check->data_crc32};
    saved.data_crc32 = check->data_crc32;
    executor.adopt_baseline(saved);
  }
  // Recorded again: it ends the check's intent (a later death is no death in the baseline) and
  // keeps the checksum the disk holds now.
  run.stop = store.record_baseline(saved);
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

Repeats measure_repeats(TrialExecutor& executor, TrialStore& store, const probe::Settings& original, int count,
                        bool all_samples, int first_index) {
  Repeats repeats;
  TrialRequest request;
  request.kind = TrialKind::baseline_repeat;
  request.all_samples = all_samples;
  for (int i = 0; i < count; ++i) {
    auto [again, stop] = measured_or_stopped(run_original(executor, store, original, request, first_index + i));
    again.trial.settings = original;
    repeats.measured_s += measurement_seconds(again.trial);
    if (again.trial.status != TrialStatus::ok) {
      repeats.failed = std::move(again.trial);
      repeats.stopped = by_signal(stop);
      repeats.stop = store_failure(std::move(stop));
      return repeats;
    }
    repeats.figures.push_back(again.trial.median);
    repeats.samples.push_back(std::move(again.trial.samples));
  }
  return repeats;
}

BaselineRun obtain_baseline(TrialExecutor& executor, TrialStore& store, const probe::Settings& original, int repeats) {
  BaselineRun run;
  if (const auto died = store.history().baseline_in_flight) {
    if (auto why = baseline_death_verdict(*died); !why.empty()) {
      run.failed = TrialResult{};
      run.failed->settings = original;
      run.failed->status = TrialStatus::crashed;
      run.failed->detail = std::move(why);
      return run;
    }
    run.in_flight = died->what;
  }
  if (auto saved = store.saved_baseline()) {
    auto resumed = resumed_baseline(executor, store, original, std::move(*saved));
    resumed.in_flight = std::move(run.in_flight);
    return resumed;
  }
  TrialRequest request;
  request.kind = TrialKind::baseline;
  auto first = measure_original(executor, store, original, request, run);
  if (!first) return run;
  Baseline baseline;
  static_cast<TrialMeasurement&>(baseline) = std::move(*first);
  executor.adopt_baseline(baseline);
  auto again = measure_repeats(executor, store, original, repeats, false);
  if (again.failed) {
    run.failed = std::move(again.failed);
    run.stopped = again.stopped;
    run.stop = std::move(again.stop);
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
