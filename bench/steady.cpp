// SPDX-License-Identifier: GPL-2.0-or-later
// The steady-rate stop: least-squares rates of a sample's chunk ends, their drift, the projected figure.
#include "bench/steady.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace disktune::bench {
namespace {

// Least-squares slope of the counts against the times over [first, last); nullopt when the
// times do not spread.
std::optional<double> slope(std::span<const double> t, std::span<const double> count, std::size_t first,
                            std::size_t last) {
  const auto n = static_cast<double>(last - first);
  double mean_t = 0.0, mean_c = 0.0;
  for (std::size_t i = first; i < last; ++i) mean_t += t[i], mean_c += count[i];
  mean_t /= n;
  mean_c /= n;
  double sxy = 0.0, sxx = 0.0;
  for (std::size_t i = first; i < last; ++i) {
    sxy += (t[i] - mean_t) * (count[i] - mean_c);
    sxx += (t[i] - mean_t) * (t[i] - mean_t);
  }
  if (sxx <= 0.0) return std::nullopt;
  return sxy / sxx;
}

// Standard error of the mean of the rates between consecutive points in [first, last).
double rate_standard_error(std::span<const double> t, std::span<const double> count, std::size_t first,
                           std::size_t last) {
  std::vector<double> rates;
  for (std::size_t i = first + 1; i < last; ++i)
    if (t[i] > t[i - 1]) rates.push_back((count[i] - count[i - 1]) / (t[i] - t[i - 1]));
  if (rates.size() < 2) return std::numeric_limits<double>::infinity();
  double mean = 0.0;
  for (const double r : rates) mean += r;
  mean /= static_cast<double>(rates.size());
  double squares = 0.0;
  for (const double r : rates) squares += (r - mean) * (r - mean);
  const auto n = static_cast<double>(rates.size());
  return std::sqrt(squares / (n - 1.0) / n);
}

}  // namespace

std::optional<double> steady_slope(std::span<const double> t_s, std::span<const double> count,
                                   const SteadyRule& rule, double duration_s) {
  DT_ASSERT(duration_s > 0.0 && rule.min_window_chunks >= 4 && t_s.size() == count.size());
  if (!rule.enabled || t_s.empty()) return std::nullopt;
  const double elapsed = t_s.back();
  if (elapsed < rule.min_fraction * duration_s) return std::nullopt;
  const double ramp_end = rule.ramp_fraction * elapsed;
  const auto first = static_cast<std::size_t>(std::upper_bound(t_s.begin(), t_s.end(), ramp_end) - t_s.begin());
  const std::size_t last = t_s.size();
  if (last - first < rule.min_window_chunks) return std::nullopt;
  const std::size_t middle = first + (last - first) / 2;
  const auto whole = slope(t_s, count, first, last);
  const auto early = slope(t_s, count, first, middle);
  const auto late = slope(t_s, count, middle, last);
  if (!whole || !early || !late || *whole <= 0.0) return std::nullopt;
  if (std::abs(*early - *late) / *whole > rule.max_drift) return std::nullopt;
  if (rule.max_relative_se > 0.0 && rate_standard_error(t_s, count, first, last) > rule.max_relative_se * *whole)
    return std::nullopt;
  return *whole;
}

std::optional<double> steady_rate(std::span<const double> chunk_end_s, std::uint64_t chunk_bytes,
                                  const SteadyRule& rule, double duration_s) {
  DT_ASSERT(chunk_bytes > 0);
  std::vector<double> bytes(chunk_end_s.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<double>(i + 1) * static_cast<double>(chunk_bytes);
  return steady_slope(chunk_end_s, bytes, rule, duration_s);
}

double projected_rate(std::uint64_t bytes, double elapsed_s, double rate, double duration_s) {
  DT_ASSERT(elapsed_s > 0.0 && elapsed_s < duration_s && rate >= 0.0);
  return (static_cast<double>(bytes) + rate * (duration_s - elapsed_s)) / duration_s;
}

}  // namespace disktune::bench
