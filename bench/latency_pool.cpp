// SPDX-License-Identifier: GPL-2.0-or-later
// Pooled latency histograms and the order-statistic interval of their percentile.
#include "bench/latency_pool.hpp"

#include "probe/core/assert.hpp"

#include <boost/math/distributions/binomial.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace disktune::bench {
namespace {

using Binomial = boost::math::binomial_distribution<double>;

// P(B <= k) for k >= 0.
double cdf_at(const Binomial& b, std::uint64_t k) { return boost::math::cdf(b, static_cast<double>(k)); }

// The smallest k in [lo, hi] with holds(k), hi + 1 when none (holds is monotone: false then true).
template <typename Pred>
std::uint64_t first_true(std::uint64_t lo, std::uint64_t hi, Pred holds) {
  std::uint64_t end = hi + 1;
  while (lo < end) {
    const std::uint64_t mid = lo + (end - lo) / 2;
    if (holds(mid)) end = mid;
    else lo = mid + 1;
  }
  return end;
}

// The latency [ns] of the rank-th smallest completion (1-based).
double at_rank(const LatencyPool& pool, long double rank) {
  std::uint64_t running = 0;
  for (const auto& bin : pool.bins) {
    running += bin.count;
    if (static_cast<long double>(running) >= rank) return bin.ns;
  }
  return pool.bins.back().ns;
}

// fio's running-count threshold for a percentile: the percent as the double fio parses
// ("99.9" is 99.900000000000006), divided in long double (calc_clat_percentiles), so a
// p99.9 of 3000 reads is the 2998th, not the 2997th, as fio prints it.
long double fio_rank(double fraction, std::uint64_t n) {
  const double percent = std::round(fraction * 1e6) / 1e4;  // the double nearest the decimal percent
  return static_cast<long double>(percent) / 100.0L * static_cast<long double>(n);
}

}  // namespace

double fio_bucket_ns(double ns) {
  DT_ASSERT(ns >= 0.0);
  constexpr int kPlatBits = 6;
  const auto value = static_cast<std::uint64_t>(ns);
  const int msb = value == 0 ? 0 : 63 - __builtin_clzll(value);
  if (msb <= kPlatBits) return static_cast<double>(value);
  const int error_bits = msb - kPlatBits;
  const std::uint64_t lower = (value >> error_bits) << error_bits;
  return static_cast<double>(lower + (std::uint64_t{1} << error_bits) / 2);
}

void add_bins(LatencyPool& pool, std::span<const LatencyBin> bins) {
  // Sort the new buckets, merge the two sorted runs, then fold equal latencies: linear in the
  // pool, so pooling many samples of thousands of buckets stays cheap.
  std::vector<LatencyBin> merged;
  std::vector<LatencyBin> added;
  for (const auto& bin : bins)
    if (bin.count > 0) added.push_back(bin);
  const auto by_ns = [](const LatencyBin& a, const LatencyBin& b) { return a.ns < b.ns; };
  std::sort(added.begin(), added.end(), by_ns);
  merged.reserve(pool.bins.size() + added.size());
  std::merge(pool.bins.begin(), pool.bins.end(), added.begin(), added.end(), std::back_inserter(merged), by_ns);
  pool.bins.clear();
  for (const auto& bin : merged) {
    if (!pool.bins.empty() && pool.bins.back().ns == bin.ns) pool.bins.back().count += bin.count;
    else pool.bins.push_back(bin);
  }
}

std::uint64_t completions_of(const LatencyPool& pool) {
  std::uint64_t n = 0;
  for (const auto& bin : pool.bins) n += bin.count;
  return n;
}

std::optional<PooledPercentile> pooled_percentile(const LatencyPool& pool, double confidence) {
  DT_ASSERT(pool.fraction > 0.0 && pool.fraction < 1.0);
  DT_ASSERT(confidence > 0.0 && confidence < 1.0);
  const std::uint64_t n = completions_of(pool);
  if (n == 0) return std::nullopt;
  const Binomial b(static_cast<double>(n), pool.fraction);
  const double tail = (1.0 - confidence) / 2.0;
  // l: the largest l >= 1 with P(B <= l - 1) <= tail, i.e. one before the first l that fails.
  const std::uint64_t first_over = first_true(1, n, [&](std::uint64_t l) { return cdf_at(b, l - 1) > tail; });
  const std::uint64_t l = std::max<std::uint64_t>(1, first_over - 1);
  // u: the smallest u with P(B >= u) = 1 - P(B <= u - 1) <= tail.
  const std::uint64_t u = first_true(1, n, [&](std::uint64_t k) { return 1.0 - cdf_at(b, k - 1) <= tail; });
  const double below_l = cdf_at(b, l - 1);  // P(B <= l - 1): x(l) above the percentile
  PooledPercentile p;
  p.completions = n;
  p.value_us = at_rank(pool, fio_rank(pool.fraction, n)) / 1000.0;
  p.low_us = at_rank(pool, static_cast<double>(l)) / 1000.0;
  if (u <= n) {
    p.high_us = at_rank(pool, static_cast<double>(u)) / 1000.0;
    p.coverage = cdf_at(b, u - 1) - below_l;
  } else {
    p.coverage = 1.0 - below_l;
  }
  return p;
}

std::uint64_t completions_to_bound(double fraction, double confidence) {
  DT_ASSERT(fraction > 0.0 && fraction < 1.0);
  DT_ASSERT(confidence > 0.0 && confidence < 1.0);
  // P(B >= N) = fraction^N: every completion at or below the percentile.
  return static_cast<std::uint64_t>(std::ceil(std::log((1.0 - confidence) / 2.0) / std::log(fraction)));
}

}  // namespace disktune::bench
