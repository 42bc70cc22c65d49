// SPDX-License-Identifier: GPL-2.0-or-later
// A percentile over every completion a configuration's samples timed: fio's latency
// histograms pooled, and the percentile's distribution-free interval from their ranks.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace disktune::bench {

/// One bucket of fio's completion-latency histogram (`--output-format=json+`,
/// jobs[].read.clat_ns.bins: key = the bucket's value, fio's plat_idx_to_val, in ns; value =
/// completions in it). fio's buckets are log-linear, 64 per power of two, so a value stands for
/// latencies within 1/64 (1.6 %) of it. Source: fio's stat.c (calc_clat_percentiles,
/// plat_idx_to_val), HOWTO.rst "json+".
struct LatencyBin {
  double ns = 0.0;
  std::uint64_t count = 0;
  bool operator==(const LatencyBin&) const = default;
};

/// The value of fio's histogram bucket holding a latency of `ns` (rounded down to whole ns):
/// below 128 ns the latency itself; above, buckets 1/64 of a power of two wide, valued at
/// their middle (fio's plat_val_to_idx then plat_idx_to_val, FIO_IO_U_PLAT_BITS 6: 644 ns for
/// 640-647). Source: fio's stat.c. Precondition: ns >= 0.
double fio_bucket_ns(double ns);

/// Completion latencies of one or more samples, pooled: their buckets summed.
struct LatencyPool {
  double fraction = 0.99;        ///< the percentile as a fraction: 0.99 (p99), 0.999 (p999)
  std::vector<LatencyBin> bins;  ///< sorted by ns, each ns once, counts > 0
  bool operator==(const LatencyPool&) const = default;
};

/// Add `bins` (in any order, repeats allowed; zero counts ignored) into `pool`, keeping it
/// sorted with each ns once. Errors: none.
void add_bins(LatencyPool& pool, std::span<const LatencyBin> bins);

/// The completions in `pool` (the sum of its counts).
std::uint64_t completions_of(const LatencyPool& pool);

/// A pooled percentile [µs] and its distribution-free interval [µs].
struct PooledPercentile {
  double value_us = 0.0;  ///< fio's rule: the first bucket whose running count reaches fraction × N
  double low_us = 0.0;    ///< the interval: the latencies of ranks l and u (below)
  double high_us = 0.0;   ///< 0 when N is too small to bound the percentile from above
  double coverage = 0.0;  ///< the interval's actual coverage (≥ confidence when high_us > 0)
  std::uint64_t completions = 0;  ///< N
};

/// The percentile of `pool` with its interval: with the N latencies sorted and B ~
/// Binomial(N, fraction) (the completions at or below the true percentile), the interval is
/// [x(l), x(u)] for the largest l ≥ 1 with P(B ≤ l − 1) ≤ tail and the smallest u ≤ N with
/// P(B ≥ u) ≤ tail, tail = (1 − confidence) / 2 (Boost.Math); coverage P(l ≤ B ≤ u − 1). When
/// no such u exists (too few completions beyond the percentile: 300 reads for a p99), high_us
/// is 0 and coverage is P(B ≥ l). It assumes independent completions; disktune uses it within
/// one configuration's samples and leaves the noise between configurations and runs to the
/// winner rule's noise floor. Source: Conover, Practical Nonparametric Statistics (3rd ed.),
/// section 3.2 (confidence interval for a quantile). nullopt for an empty pool.
/// Preconditions: 0 < fraction < 1, 0 < confidence < 1.
std::optional<PooledPercentile> pooled_percentile(const LatencyPool& pool, double confidence = 0.95);

/// The fewest completions whose pooled_percentile at `confidence` has an upper bound (high_us >
/// 0): the smallest N with fraction^N <= (1 - confidence) / 2, so that x(N), the largest, can
/// bound it. p99 at 95 %: 368; p999: 3 688. Preconditions: 0 < fraction < 1, 0 < confidence < 1.
std::uint64_t completions_to_bound(double fraction, double confidence = 0.95);

}  // namespace disktune::bench
