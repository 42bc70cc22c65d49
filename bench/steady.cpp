// SPDX-License-Identifier: GPL-2.0-or-later
// The steady-rate stop: least-squares rates of a sample's chunk ends, their drift, the projected figure.
#include "bench/steady.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>
#include <cmath>

namespace disktune::bench {
namespace {

// Least-squares slope of cumulative bytes (chunk i of the sample ends having read (i + 1)
// chunks) against the chunk ends [first, last); nullopt when the ends do not spread in time.
std::optional<double> bytes_slope(std::span<const double> ends, std::size_t first, std::size_t last,
                                  std::uint64_t chunk_bytes) {
  const auto n = static_cast<double>(last - first);
  double mean_t = 0.0, mean_b = 0.0;
  for (std::size_t i = first; i < last; ++i) mean_t += ends[i], mean_b += static_cast<double>(i + 1);
  mean_t /= n;
  mean_b /= n;
  double sxy = 0.0, sxx = 0.0;
  for (std::size_t i = first; i < last; ++i) {
    sxy += (ends[i] - mean_t) * (static_cast<double>(i + 1) - mean_b);
    sxx += (ends[i] - mean_t) * (ends[i] - mean_t);
  }
  if (sxx <= 0.0) return std::nullopt;
  return sxy / sxx * static_cast<double>(chunk_bytes);
}

}  // namespace

std::optional<double> steady_rate(std::span<const double> chunk_end_s, std::uint64_t chunk_bytes,
                                  const SteadyRule& rule, double duration_s) {
  DT_ASSERT(duration_s > 0.0 && chunk_bytes > 0 && rule.min_window_chunks >= 4);
  if (!rule.enabled || chunk_end_s.empty()) return std::nullopt;
  const double elapsed = chunk_end_s.back();
  if (elapsed < rule.min_fraction * duration_s) return std::nullopt;
  const double ramp_end = rule.ramp_fraction * elapsed;
  const auto first = static_cast<std::size_t>(
      std::upper_bound(chunk_end_s.begin(), chunk_end_s.end(), ramp_end) - chunk_end_s.begin());
  const std::size_t last = chunk_end_s.size();
  if (last - first < rule.min_window_chunks) return std::nullopt;
  const std::size_t middle = first + (last - first) / 2;
  const auto whole = bytes_slope(chunk_end_s, first, last, chunk_bytes);
  const auto early = bytes_slope(chunk_end_s, first, middle, chunk_bytes);
  const auto late = bytes_slope(chunk_end_s, middle, last, chunk_bytes);
  if (!whole || !early || !late || *whole <= 0.0) return std::nullopt;
  if (std::abs(*early - *late) / *whole > rule.max_drift) return std::nullopt;
  return *whole;
}

double projected_rate(std::uint64_t bytes, double elapsed_s, double rate, double duration_s) {
  DT_ASSERT(elapsed_s > 0.0 && elapsed_s < duration_s && rate >= 0.0);
  return (static_cast<double>(bytes) + rate * (duration_s - elapsed_s)) / duration_s;
}

}  // namespace disktune::bench
