// SPDX-License-Identifier: GPL-2.0-or-later
// The run's noise against the smallest gain the winner rule accepts: said at once, acted on.
#pragma once

#include "bench/objective.hpp"
#include "bench/adaptive.hpp"
#include "probe/core/error.hpp"
#include "probe/settings.hpp"
#include "strategies/baseline.hpp"
#include "strategies/trial_executor.hpp"
#include "strategies/trial_store.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace disktune::tuner {

/// What the noise check concluded.
struct NoiseCheck {
  bool resolvable = true;   ///< the noise is at most the smallest accepted gain
  std::string detail;       ///< the figures and what to do, when not resolvable; else empty
  std::string summary;      ///< the noise in a few words ("noise 13.09 % with 10 samples per trial"); else empty
  double measured_s = 0.0;  ///< measurement time of the re-measured baseline trials [s]
  /// The baseline's noise was measured again (its aa_medians and noise_floor_pct replaced); the
  /// caller records the baseline again after the check (with all_samples and measured_s), so
  /// that a resumed run samples and judges as this one.
  bool remeasured = false;
  /// Every trial from now on takes the most samples (strategies::TrialRequest::all_samples).
  bool all_samples = false;
  /// The re-measurement found the baseline unstable (baseline_error of the repeat that was): a
  /// setting changed behind disktune's back (baseline_changed_behind), data read otherwise than
  /// the first baseline trial's checksum, kernel errors logged: the run must stop; nullopt otherwise.
  std::optional<probe::Error> unstable{};
};

/// "3 baseline trials, medians 40.10, 43.50, 41.00 MB/s: noise 8.30 %": the medians (scores)
/// as `objective`'s figures in its unit (bench::figure_number, unit_of).
std::string noise_figures(const std::vector<double>& medians, double noise_pct, const bench::Objective& objective);

/// What settle_noise measures with and against.
struct NoiseInput {
  strategies::TrialExecutor& executor;  ///< runs the baseline's repeats again
  strategies::TrialStore& store;        ///< takes each repeat's intent record first
  const probe::Settings& original;      ///< the settings as found
  std::string device;                   ///< its path, for a failed repeat's error
  bench::SamplingPlan sampling;         ///< samples per trial as configured (--repeats, --max-repeats)
  const bench::Objective& objective;    ///< the figures' unit
  /// A resumed run's recorded decision (strategies::Baseline::all_samples): taken as it is,
  /// nothing measured again, so that its trials are sampled and judged as the run it resumes.
  std::optional<bool> kept_all_samples{};
};

/// With input.kept_all_samples, that decision as it is (said on `log`: the samples per trial and
/// the noise it judges by), not resolvable as below when the noise exceeds `min_gain_pct`.
/// Else, when baseline.noise_floor_pct exceeds `min_gain_pct`, the noise could hide the smallest
/// gain the winner rule accepts: say so on `log` at once with the figures, ask for
/// --max-repeats samples in every trial from now on (NoiseCheck::all_samples: the median of
/// more samples varies less) and, unless `keep_figures` (the baseline came from a resumed
/// journal, or --time-budget leaves no room), no more samples are allowed, or the baseline's
/// first trial already took them all (the same trials again would cost as much and say the same), measure the
/// noise again with as many baseline trials at that count (strategies::measure_repeats),
/// updating baseline.aa_medians and noise_floor_pct; when that did not take the noise below
/// 75 % of the first figure (a noise between trials, which more samples in each cannot lower),
/// trials keep the configured samples (all_samples false again), the first aa_medians and
/// noise_floor_pct are put back (the noise of trials sampled so; remeasured false: the baseline
/// as first recorded stands) and the log says why. NoiseCheck::summary names the samples per
/// trial the noise on record was measured with. Still too large: not resolvable, with
/// what to do (a longer --duration, a quieter machine). No errors: a failed re-measurement
/// keeps the first figures (an unstable one says so in NoiseCheck::unstable).
NoiseCheck settle_noise(const NoiseInput& input, strategies::Baseline& baseline, bool keep_figures, double min_gain_pct,
                        std::ostream& log);

}  // namespace disktune::tuner
