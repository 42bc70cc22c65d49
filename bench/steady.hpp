// SPDX-License-Identifier: GPL-2.0-or-later
// The steady-rate stop of a buffered sample (fio's ss=bw_slope idea): pure, on chunk completion times.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace disktune::bench {

/// When a buffered sample may end before its duration: its rate has settled. The window is
/// every chunk that ended after ramp_fraction of the time so far (the first reads, before
/// readahead is under way, are ramp). Its rate is the least-squares slope of bytes read
/// against time over the window's chunk ends (a throttled or queued device completes reads
/// in bursts; a slope through every end does not depend on where a burst happens to fall, a
/// rate between two ends would); steady when the slopes of the window's two halves agree
/// within max_drift of it. docs/measurement-fidelity.md "Steady samples" has the measurements
/// the defaults come from.
struct SteadyRule {
  bool enabled = false;              ///< false: every sample runs its whole duration
  double min_fraction = 1.0 / 3.0;   ///< never before this fraction of the duration (0-1)
  double ramp_fraction = 0.1;        ///< chunks ending before this fraction of the elapsed time are ramp
  std::size_t min_window_chunks = 16;  ///< at least this many chunks in the window (>= 4)
  double max_drift = 0.03;           ///< |slope of first half - slope of second half| / window slope
  /// steady_slope only: the standard error of the window's mean rate (the rates between
  /// consecutive points: their standard deviation over the square root of their number)
  /// must be within this fraction of the window's slope. Bursty counts (a throttle's slices,
  /// 1 MiB reads at 50 a second in 100 ms reports) can agree between halves by chance; their
  /// spread does not shrink so. 0: off.
  double max_relative_se = 0.0;
};

/// The window's rate in bytes per second when the sample is steady, else nullopt.
/// `chunk_end_s[i]`: seconds from the sample's start to the end of chunk i (nondecreasing;
/// a chunk's time includes the drop or wrap flush after it), every chunk `chunk_bytes` long.
/// Steady: the rule is enabled, chunk_end_s.back() >= min_fraction x duration_s, the window
/// holds min_window_chunks and both halves' slopes are within max_drift of the window's.
/// Precondition: duration_s > 0, chunk_bytes > 0.
std::optional<double> steady_rate(std::span<const double> chunk_end_s, std::uint64_t chunk_bytes,
                                  const SteadyRule& rule, double duration_s);

/// steady_rate's rule over any cumulative count: `count[i]` (bytes, completions) had
/// accumulated `t_s[i]` seconds into the sample (t_s nondecreasing, same size as count). The
/// window is every point after ramp_fraction of t_s.back(), at least rule.min_window_chunks
/// points. Its slope in count units per second when steady, else nullopt. Used for fio's
/// --status-interval reports (bench/fio_sampler.hpp). Precondition: duration_s > 0.
std::optional<double> steady_slope(std::span<const double> t_s, std::span<const double> count,
                                   const SteadyRule& rule, double duration_s);

/// The figure a sample stopped early at `elapsed_s` (0 < elapsed_s < duration_s) with `bytes`
/// read would have given over its whole `duration_s` had it kept `rate` (bytes per second):
/// (bytes + rate x (duration_s - elapsed_s)) / duration_s, in bytes per second. A full-length
/// sample's figure includes its start (the first reads, before readahead is under way); a
/// short one's, bytes over elapsed, would weigh that start more (measured: 1 s samples read 4 %
/// below 3 s ones on a throttled loop device), so it is extended at the steady rate instead.
double projected_rate(std::uint64_t bytes, double elapsed_s, double rate, double duration_s);

}  // namespace disktune::bench
