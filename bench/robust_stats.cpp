// SPDX-License-Identifier: GPL-2.0-or-later
// Robust statistics: scaled MAD, order-statistic interval of the median, outlier flags.
#include "bench/stats.hpp"

#include "probe/core/assert.hpp"

#include <boost/math/distributions/binomial.hpp>

#include <algorithm>
#include <cmath>

namespace disktune::bench {

namespace {
constexpr double kMadToSigma = 1.4826;  // 1 / Phi^-1(3/4): MAD of N(0, 1) is 0.6745
}  // namespace

double scaled_mad(std::span<const double> values) { return kMadToSigma * mad(values); }

Interval median_interval(std::span<const double> values, double confidence) {
  DT_ASSERT(!values.empty());
  DT_ASSERT(confidence > 0.0 && confidence < 1.0);
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const boost::math::binomial_distribution<double> binomial(static_cast<double>(n), 0.5);
  const double tail = (1.0 - confidence) / 2.0;
  // k is 1-based; the largest k with P(B <= k-1) <= tail, but at least 1.
  std::size_t k = 1;
  while (k + 1 <= (n + 1) / 2 && boost::math::cdf(binomial, static_cast<double>(k)) <= tail) ++k;
  const double coverage = 1.0 - 2.0 * boost::math::cdf(binomial, static_cast<double>(k - 1));
  return {sorted[k - 1], sorted[n - k], coverage};
}

double relative_half_width(const Interval& interval, double center) {
  return center == 0.0 ? 0.0 : (interval.high - interval.low) / 2.0 / center;
}

std::vector<std::size_t> outlier_indices(std::span<const double> values, double k) {
  const double scale = scaled_mad(values);
  std::vector<std::size_t> flagged;
  if (scale == 0.0) return flagged;
  const double m = median(values);
  for (std::size_t i = 0; i < values.size(); ++i)
    if (std::fabs(values[i] - m) > k * scale) flagged.push_back(i);
  return flagged;
}

}  // namespace disktune::bench
