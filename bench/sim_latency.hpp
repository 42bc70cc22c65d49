// SPDX-License-Identifier: GPL-2.0-or-later
// Simulated completion latencies: reads drawn from the random-read model's latency
// distribution, bucketed as fio's json+ histogram, so a simulated percentile has the sampling
// noise of its completions and pools over samples as fio's does.
#pragma once

#include "bench/latency_pool.hpp"
#include "probe/sim/sim_random_model.hpp"

#include <cstdint>

namespace disktune::bench {

/// `count` completion latencies drawn from the model's distribution (SIMULATED), each times
/// `scale` (the sample's environment noise, a "slow" fault), bucketed by fio_bucket_ns, as a
/// pool of `fraction` (0.99 for p99, 0.999 for p999). The distribution: a quantile function
/// linear in t = -ln(1 - u) between the model's p50, p99 and p999 (an exponential tail in each
/// segment, the last extended beyond p999; below the median the first, floored at a tenth of
/// the median), so the pool's percentiles tend to the model's and a percentile over k
/// completions beyond it has the spread an exponential tail gives. Deterministic for `stream`
/// (u from splitmix64, not a library distribution whose output may change).
/// Preconditions (DT_ASSERT): count >= 1, scale > 0, p50 > 0.
LatencyPool sim_latency_draws(const probe::SimFigures& figures, double fraction, std::uint64_t count, double scale,
                              std::uint64_t stream);

}  // namespace disktune::bench
