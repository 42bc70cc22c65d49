// SPDX-License-Identifier: GPL-2.0-or-later
// Statistics as pure free functions.
#include "bench/stats.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace disktune::bench {

double mean(std::span<const double> values) {
  DT_ASSERT(!values.empty());
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double median(std::span<const double> values) {
  DT_ASSERT(!values.empty());
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t mid = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
}

double stddev(std::span<const double> values) {
  if (values.size() < 2) return 0.0;
  const double m = mean(values);
  double sum = 0.0;
  for (const double v : values) sum += (v - m) * (v - m);
  return std::sqrt(sum / static_cast<double>(values.size() - 1));
}

double cv(std::span<const double> values) {
  const double m = mean(values);
  return m == 0.0 ? 0.0 : stddev(values) / m;
}

double mad(std::span<const double> values) {
  const double m = median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (const double v : values) deviations.push_back(std::fabs(v - m));
  return median(deviations);
}

double min_value(std::span<const double> values) {
  DT_ASSERT(!values.empty());
  return *std::min_element(values.begin(), values.end());
}

double max_value(std::span<const double> values) {
  DT_ASSERT(!values.empty());
  return *std::max_element(values.begin(), values.end());
}

double relative_spread(std::span<const double> values) {
  const double m = median(values);
  return m == 0.0 ? 0.0 : (max_value(values) - min_value(values)) / m;
}

}  // namespace disktune::bench
