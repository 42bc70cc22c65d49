// SPDX-License-Identifier: GPL-2.0-or-later
// The baseline's trials: the settings as found, measured through the run's executor and store.
#pragma once

#include "strategies/baseline.hpp"
#include "strategies/stop.hpp"
#include "strategies/trial.hpp"
#include "strategies/trial_executor.hpp"
#include "strategies/trial_store.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace disktune::strategies {

/// Trials of the settings as found, taken one after another (TrialKind::baseline_repeat).
struct Repeats {
  std::vector<std::vector<double>> samples;  ///< each trial's samples [score unit], in order
  std::vector<double> figures;               ///< each trial's figure (TrialResult::median), in order
  /// The first trial that did not end ok (its status and detail); the repeats stop there.
  std::optional<TrialResult> failed;
  bool stopped = false;     ///< `failed` was stopped by a signal (nothing says the device is at fault)
  std::optional<Stop> stop;  ///< `failed` because its intent record could not be written (store_failed)
  double measured_s = 0.0;  ///< measurement time of the trials that ran, the failed one included [s]
};

/// The data checksum a resumed run found changed: the disk was written between the run it
/// resumes and this one (CRC-32 of TrialMeasurement::data_crc32's blocks).
struct ChecksumChange {
  std::uint32_t then = 0;  ///< the interrupted run's baseline checksum
  std::uint32_t now = 0;   ///< the checksum the resume read, which later trials must reproduce
};

/// What obtain_baseline came to: a baseline, or why there is none.
struct BaselineRun {
  std::optional<Baseline> baseline;  ///< measured (and recorded), or taken from the store
  bool resumed = false;              ///< taken from the store (one quick check trial ran)
  /// A resumed run's check read other data than the baseline it resumes: the baseline now
  /// holds the checksum read now (the journal keeps the old one; every resume checks again).
  std::optional<ChecksumChange> checksum_change;
  /// The baseline trial (or repeat) that did not end ok; no baseline then.
  std::optional<TrialResult> failed;
  bool stopped = false;  ///< `failed` was stopped by a signal
  /// A record could not be written (store_failed): the baseline's record (the baseline is kept,
  /// nothing more runs), or a trial's intent (that trial is `failed`, not run; no baseline).
  std::optional<Stop> stop;
  /// The baseline-kind trial the resumed run died in, measured again here ("noise repeat 2"),
  /// or empty.
  std::string in_flight;
};

/// `count` trials of `original` (TrialKind::baseline_repeat, all_samples as given) through
/// `executor`, each after its intent record in `store` (begin_baseline, numbered from
/// `first_index`), until one does not end ok. Errors: none beyond Repeats::failed (a record
/// that cannot be written fails the repeat as an error, with the store's message).
Repeats measure_repeats(TrialExecutor& executor, TrialStore& store, const probe::Settings& original, int count,
                        bool all_samples, int first_index = 1);

/// The run's baseline: the one `store` saved (a resumed run's; the executor adopts it, then one
/// quick TrialKind::baseline_check trial of `original` re-reads the data checksum: a disk
/// written between the runs would otherwise fail every later trial as corrupt; the baseline,
/// with the checksum read now, is then recorded again, which ends the check's intent), else
/// measured: a TrialKind::baseline trial of `original` (adopted by the executor at once, so the
/// repeats run with the limits its rate sets), `repeats` measure_repeats trials, their noise
/// (set_noise over all of them) and the whole measurement time, then recorded in `store`.
/// Every trial of the settings as found is begun in `store` first (begin_baseline), so a death
/// in any of them is known to the resume: one that died while the baseline was in flight
/// measures it again (BaselineRun::in_flight says so); after two machine restarts there the
/// baseline fails as crashed (baseline_death_verdict) without running anything.
BaselineRun obtain_baseline(TrialExecutor& executor, TrialStore& store, const probe::Settings& original, int repeats);

/// Fill `baseline`'s aa_medians and noise_floor_pct (bench::repeat_noise) from separate trials
/// of the baseline: `figures` are their figures as the search judges trials (TrialResult::median:
/// the samples' median, or a pooled percentile's), `trials` their samples [score unit], in the
/// same order. Precondition: the same non-zero number of each.
void set_noise(Baseline& baseline, const std::vector<std::vector<double>>& trials, const std::vector<double>& figures);

}  // namespace disktune::strategies
