// SPDX-License-Identifier: GPL-2.0-or-later
// The noise between repeated measurements of one configuration.
#include "bench/stats.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace disktune::bench {
namespace {

// Mean |m_i - m_j| over all pairs of `medians`; 0 for fewer than two.
double mean_pairwise_difference(const std::vector<double>& medians) {
  double sum = 0.0;
  int pairs = 0;
  for (std::size_t i = 0; i < medians.size(); ++i)
    for (std::size_t j = i + 1; j < medians.size(); ++j, ++pairs) sum += std::fabs(medians[i] - medians[j]);
  return pairs ? sum / pairs : 0.0;
}

// Pooled within-trial standard deviation (each trial about its own mean); 0 without two samples in a trial.
double pooled_stddev(const std::vector<std::vector<double>>& trials) {
  double squares = 0.0;
  std::size_t freedom = 0;
  for (const auto& samples : trials) {
    if (samples.size() < 2) continue;
    const double m = mean(samples);
    for (const double x : samples) squares += (x - m) * (x - m);
    freedom += samples.size() - 1;
  }
  return freedom ? std::sqrt(squares / static_cast<double>(freedom)) : 0.0;
}

}  // namespace

RepeatNoise repeat_noise(const std::vector<std::vector<double>>& trials) {
  DT_ASSERT(!trials.empty());
  std::vector<double> medians;
  for (const auto& samples : trials) {
    DT_ASSERT(!samples.empty());
    medians.push_back(median(samples));
  }
  return repeat_noise(trials, medians);
}

RepeatNoise repeat_noise(const std::vector<std::vector<double>>& trials, const std::vector<double>& figures) {
  DT_ASSERT(!trials.empty() && figures.size() == trials.size());
  RepeatNoise noise;
  std::size_t fewest = trials.front().size();
  for (const auto& samples : trials) {
    DT_ASSERT(!samples.empty());
    fewest = std::min(fewest, samples.size());
  }
  const double center = median(figures);
  if (center <= 0.0) return noise;
  noise.observed_pct = 100.0 * mean_pairwise_difference(figures) / center;
  // The median of n samples varies about 1.2533 sigma / sqrt(n) (normal data); two
  // independent ones differ by 2 / sqrt(pi) times that on average.
  const double median_sd = 1.2533 * pooled_stddev(trials) / std::sqrt(static_cast<double>(fewest));
  noise.predicted_pct = 100.0 * 2.0 / std::sqrt(std::numbers::pi) * median_sd / center;
  // Measured medians are never all equal; a simulated drive's are (its noise is the same for
  // every measurement of a configuration): then only the scatter tells.
  noise.pct = noise.observed_pct > 0.0 ? noise.observed_pct : noise.predicted_pct;
  return noise;
}

}  // namespace disktune::bench
