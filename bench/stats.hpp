// SPDX-License-Identifier: GPL-2.0-or-later
// Pure statistics over samples (google/benchmark style: free functions, hand-checked tests).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace disktune::bench {

/// Arithmetic mean. Precondition (DT_ASSERT): non-empty.
double mean(std::span<const double> values);
/// Median (mean of the two middle values for an even count). Precondition: non-empty.
double median(std::span<const double> values);
/// Sample standard deviation (n - 1 denominator); 0 for fewer than two values.
double stddev(std::span<const double> values);
/// Coefficient of variation: stddev / mean; 0 when the mean is 0.
double cv(std::span<const double> values);
/// Median absolute deviation from the median (unscaled). Precondition: non-empty.
double mad(std::span<const double> values);
/// Smallest / largest value. Precondition: non-empty.
double min_value(std::span<const double> values);
double max_value(std::span<const double> values);
/// Relative spread (max - min) / median, the figure the report prints as ±%. 0 if median is 0.
double relative_spread(std::span<const double> values);

/// MAD scaled to estimate the standard deviation of normal data: 1.4826 × mad(values).
/// Precondition: non-empty.
double scaled_mad(std::span<const double> values);

/// A confidence interval [low, high] and the coverage it actually has (0..1).
struct Interval {
  double low = 0.0;
  double high = 0.0;
  double coverage = 0.0;
};

/// Distribution-free confidence interval of the median from order statistics: with the
/// values sorted x(1) <= ... <= x(n), [x(k), x(n+1-k)] for the largest k >= 1 with
/// 2 P(B <= k-1) <= 1 - confidence, B ~ Binomial(n, 1/2) (Boost.Math); coverage =
/// 1 - 2 P(B <= k-1). When n is too small to reach `confidence` (n <= 5 at 95 %), k = 1:
/// [min, max] with its lower coverage 1 - 2^(1-n), which the caller must report as such.
/// Source: Conover, Practical Nonparametric Statistics (3rd ed.), section 3.2.
/// Preconditions: non-empty, 0 < confidence < 1.
Interval median_interval(std::span<const double> values, double confidence = 0.95);

/// Half the interval's width relative to `center` ((high - low) / 2 / center); 0 if center is 0.
double relative_half_width(const Interval& interval, double center);

/// Indices of the values farther than `k` scaled MADs from the median (k = 3: the usual
/// robust outlier rule). None when the scaled MAD is 0 (no scale to judge by). The values
/// are only flagged: callers keep them.
std::vector<std::size_t> outlier_indices(std::span<const double> values, double k = 3.0);

/// The noise between repeated measurements of one configuration, as the relative
/// difference two of their medians have on average, percent.
struct RepeatNoise {
  double observed_pct = 0.0;   ///< mean |m_i - m_j| over pairs of the trials' medians / median of them
  double predicted_pct = 0.0;  ///< from the scatter within the trials: 2/sqrt(pi) x 1.2533 sigma / sqrt(n) / median
                               ///< (sigma pooled over the trials, n the fewest samples of a trial)
  double pct = 0.0;            ///< observed_pct, or predicted_pct when all medians are equal
};

/// The noise of `trials`, each the samples [MiB/s] of one separate measurement of the same
/// configuration (a trial of its own, the device opened anew). The observed part sees
/// what changes between trials (cache and device state at open, other load); the samples
/// within a trial are often not independent (a throttled device bursts at the same sample
/// every time), so their scatter over-states how much medians differ, and only stands in
/// when the medians are all equal (a simulated drive's frozen noise, or a single trial).
/// All 0 when the medians' median is 0. Preconditions: non-empty, no empty trial.
RepeatNoise repeat_noise(const std::vector<std::vector<double>>& trials);

/// repeat_noise with each trial's figure given (`figures`, in the order of `trials`): the
/// observed noise from those (a pooled percentile's figure is not its samples' median), the
/// predicted one from the samples' scatter as above. Preconditions: as above, and
/// figures.size() == trials.size().
RepeatNoise repeat_noise(const std::vector<std::vector<double>>& trials, const std::vector<double>& figures);

}  // namespace disktune::bench
