// SPDX-License-Identifier: GPL-2.0-or-later
// A trial's statistics from its samples.
#include "bench/adaptive.hpp"
#include "bench/stats.hpp"
#include "strategies/trial.hpp"

namespace disktune::strategies {

void summarize_samples(TrialResult& trial) {
  const auto& samples = trial.samples;
  if (samples.empty()) return;
  trial.median = bench::median(samples);
  trial.spread_pct = 50.0 * bench::relative_spread(samples);  // ± half the range
  const auto interval = bench::median_interval(samples);
  trial.ci_low = interval.low;
  trial.ci_high = interval.high;
  trial.ci_coverage = interval.coverage;
  trial.outliers = bench::outlier_indices(samples);
  if (!trial.latency) return;
  if (const auto pooled = bench::pooled_score_interval(*trial.latency)) {
    trial.median = pooled->center;
    trial.ci_low = pooled->interval.low;
    trial.ci_high = pooled->interval.high;
    trial.ci_coverage = pooled->interval.coverage;
  }
}

double measurement_seconds(const TrialResult& trial) {
  return trial.measured_s + (trial.guard ? trial.guard->measured_s : 0.0);
}

GuardFigures guard_figures_of(std::vector<double> samples) {
  GuardFigures guard;
  guard.samples = std::move(samples);
  if (guard.samples.empty()) return guard;
  guard.median = bench::median(guard.samples);
  const auto interval = bench::median_interval(guard.samples);
  guard.ci_low = interval.low;
  guard.ci_high = interval.high;
  return guard;
}

double lower_bound(const TrialResult& trial) {
  return trial.ci_high > 0.0 ? trial.ci_low : trial.median;
}

double upper_bound(const TrialResult& trial) {
  return trial.ci_high > 0.0 ? trial.ci_high : trial.median;
}

bool stopped_hopeless(const TrialResult& trial) {
  return trial.samples.size() == 1 && !trial.latency &&
         trial.sampling_stop == bench::to_string(bench::SamplingStop::clearly_slower);
}

}  // namespace disktune::strategies
