// SPDX-License-Identifier: GPL-2.0-or-later
// TrialMeasurement and Baseline: what a trial child measured, and the baseline built from it.
#pragma once

#include "strategies/trial.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace disktune::strategies {

/// What one trial child measured and sends to its parent (the child-to-parent wire,
/// results/codec/trial_codec.hpp): the trial and the figures only a child that read the device
/// can give. The parent compares data_crc32 with the baseline's.
struct TrialMeasurement {
  TrialResult trial;                 ///< status, samples [score], detail, warm-up, sampling stop, measured_s
  double cached_median_mib_s = 0.0;  ///< hdparm -T style cached-read median [MiB/s]; 0 when not measured
                                     ///< (only the baseline's first child measures it)
  std::uint32_t data_crc32 = 0;      ///< CRC-32 (Boost.CRC crc_32_type) of a fixed sample of blocks; 0 when
                                     ///< the child stopped before checksumming
  bool operator==(const TrialMeasurement&) const = default;
};

/// The baseline (the settings as found, trial id 0): its first child's measurement (trial.settings
/// are the original settings) and the noise between repeated measurements of it. The one shape
/// of the baseline: TrialRunner measures it, the journal keeps it, the report shows it.
struct Baseline : TrialMeasurement {
  /// The medians of the baseline measured as separate trials (the first, then
  /// TrialSettings::noise_repeats more, each a child opening the device anew) [score unit].
  std::vector<double> aa_medians;
  /// The noise between repeated measurements of one configuration (bench::repeat_noise of
  /// those trials' samples: the relative difference two of their medians have on average) [%].
  double noise_floor_pct = 0.0;
  /// Measurement time of all the baseline's children (the noise repeats and a re-measurement of
  /// the noise included) [s; virtual when simulated]: what a --time-budget has spent before the
  /// search. Journaled; a journal from before it has only its trial's (trial.measured_s).
  double measured_s = 0.0;
  /// The noise check's decision on the search's samples (tuner::NoiseCheck::all_samples): true,
  /// every search trial takes --max-repeats samples; false, the adaptive --repeats to
  /// --max-repeats. Journaled so that a resumed run samples as the run it resumes did, judged by
  /// the same noise; nullopt before the check, and in a journal from before it.
  std::optional<bool> all_samples;
  bool operator==(const Baseline&) const = default;
};

}  // namespace disktune::strategies
