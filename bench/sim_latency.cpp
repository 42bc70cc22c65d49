// SPDX-License-Identifier: GPL-2.0-or-later
// Drawing simulated completion latencies from the model's percentiles.
#include "bench/sim_latency.hpp"

#include "probe/core/assert.hpp"
#include "probe/sim/sim_state.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace disktune::bench {

LatencyPool sim_latency_draws(const probe::SimFigures& figures, double fraction, std::uint64_t count, double scale,
                              std::uint64_t stream) {
  DT_ASSERT(count >= 1 && scale > 0.0);
  const double p50 = figures.p50_latency_s * 1e9;
  DT_ASSERT(p50 > 0.0);
  const double p99 = std::max(p50, figures.p99_latency_s * 1e9);  // the model's are monotone; rounding aside
  const double p999 = std::max(p99, figures.p999_latency_s * 1e9);
  const double t50 = std::log(2.0), t99 = std::log(100.0), t999 = std::log(1000.0);
  const double body = (p99 - p50) / (t99 - t50);  // ns per unit of t up to the p99
  const double tail = (p999 - p99) / (t999 - t99);
  std::map<double, std::uint64_t> buckets;
  for (std::uint64_t i = 0; i < count; ++i) {
    const double u = (static_cast<double>(probe::mix64(stream + i) >> 11) + 0.5) * 0x1.0p-53;  // (0, 1)
    const double t = -std::log1p(-u);
    const double ns = t <= t99 ? std::max(0.1 * p50, p50 + body * (t - t50)) : p99 + tail * (t - t99);
    ++buckets[fio_bucket_ns(ns * scale)];
  }
  LatencyPool pool{fraction, {}};
  pool.bins.reserve(buckets.size());
  for (const auto& [ns, n] : buckets) pool.bins.push_back({ns, n});
  return pool;
}

}  // namespace disktune::bench
