// SPDX-License-Identifier: GPL-2.0-or-later
// Pure statistics over samples (google/benchmark style: free functions, hand-checked tests).
#pragma once

#include <span>

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

}  // namespace disktune::bench
