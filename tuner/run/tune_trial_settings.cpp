// SPDX-License-Identifier: GPL-2.0-or-later
// What every trial of a tune measures and how long it may take, from the tune's options.
#include "tuner/run/tune_trial_settings.hpp"

#include "tuner/host/signals.hpp"
#include "tuner/host/time_limits.hpp"

namespace disktune::tuner {
namespace {

constexpr std::uint64_t kChunkBytes = 2u << 20;  // hdparm's read size

// A simulated trial takes milliseconds of wall time (virtual clock). A real one's limit is
// derived from the baseline's rate once it is measured (TrialRunner, time_limits.hpp); this
// is the first baseline child's, bounded by its stall limit per chunk.
probe::Seconds trial_timeout(const TuneOptions& tune, bool simulated) {
  if (tune.measure.trial_timeout_s) return probe::Seconds(*tune.measure.trial_timeout_s);
  // Simulated time costs real time too (generating the data read): ~15 ms per virtual second.
  if (simulated) return probe::Seconds(10.0 + 0.05 * (tune.measure.max_repeats + 1) * tune.measure.duration_s);
  const TrialShape shape{probe::Seconds(tune.measure.duration_s), tune.measure.repeats, tune.measure.max_repeats, kChunkBytes};
  return first_baseline_time_limit(shape, probe::Seconds(tune.measure.stall_timeout_s.value_or(kFirstStallS)));
}

// A configuration whose warm-up and first kept sample both read under this fraction of the
// incumbent's lower bound stops there (bench::SamplingPlan::hopeless_fraction). A quarter
// below, twice: more than ten times the per-sample spread measured on the devices here (±1-2 %
// on a disk's sequential reads, ±1-5 % on the throttled bed). Half let every
// tied knob at a bad start's 0.64x take its 3 whole samples on the throttled seq-read-direct bed.
constexpr double kHopelessFraction = 0.75;

}  // namespace

TrialSettings trial_settings_for(const TuneOptions& tune, bool simulated, const std::vector<bench::Objective>& objectives) {
  TrialSettings settings;
  // A simulated drive's time is virtual: a steady stop would save nothing and change its figures.
  settings.workload = bench::disk_read_workload(probe::Seconds(tune.measure.duration_s), !simulated && !tune.measure.full_samples);
  settings.sampling = bench::SamplingPlan{tune.measure.repeats, tune.measure.max_repeats, 0.02, true};
  // Real time only: a simulated configuration's samples cost virtual seconds.
  if (!simulated) settings.sampling.hopeless_fraction = kHopelessFraction;
  settings.timeout = trial_timeout(tune, simulated);
  if (tune.measure.stall_timeout_s) settings.stall = probe::Seconds(*tune.measure.stall_timeout_s);
  settings.derive_limits = !simulated && !tune.measure.trial_timeout_s;
  settings.stop_now = [] { return stop_now(); };
  settings.noise_repeats = tune.measure.noise_repeats.value_or(settings.noise_repeats);
  // A disk in use: its file system writes (our own journal or report may be on it).
  settings.data_in_use = tune.device.allow_mounted;
  settings.objective = objectives.front();
  if (objectives.size() > 1) settings.guard = objectives[1];
  return settings;
}

}  // namespace disktune::tuner
