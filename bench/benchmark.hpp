// SPDX-License-Identifier: GPL-2.0-or-later
// hdparm-style read measurements: cached reads (-T) and buffered disk reads (-t).
#pragma once

#include "probe/core/clock.hpp"
#include "probe/block_io.hpp"
#include "probe/core/error.hpp"
#include "bench/latency_pool.hpp"
#include "bench/steady.hpp"

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace disktune::bench {

/// What is measured. Numbers from different methods are never compared (docs/architecture.md).
enum class Method {
  cached,    ///< hdparm -T: re-read the first chunk for `duration`; page-cache bandwidth
  buffered,  ///< hdparm -t: page cache flushed, then sequential chunks from offset for `duration`
};

/// "cached" / "buffered".
std::string_view to_string(Method method);

/// One measurement's parameters. hdparm's are chunk 2 MiB, 2 s (-T) and 3 s (-t).
struct Workload {
  Method method = Method::buffered;
  std::uint64_t offset_bytes = 0;          ///< start of the reads (hdparm --offset, in bytes)
  std::uint64_t chunk_bytes = 2u << 20;    ///< bytes per read() call (hdparm: 2 MiB)
  probe::Seconds duration{3.0};            ///< minimum timed duration
  /// Buffered only: after every this many bytes read (rounded up to whole chunks), drop the
  /// page cache of what was read (BlockIo::drop_cached, timed). 0 = never (then only the flushes at the start and at a wrap, as
  /// hdparm). Why: the sample's page cache stays at most this big, so the pages it needs are
  /// the ones it just freed. Otherwise a sample allocates a fresh page for every page read,
  /// and how much those cost depends on what ran before it: in a VM with free page
  /// reporting (virtio-balloon), memory free for 2 s is handed back to the host and every
  /// page taken from it faults in the host; on a 1 GiB loop device that made a sample
  /// started cold read at 0.1-0.3x the rate of one started right after another tool's
  /// flush (docs/measurement-fidelity.md). Nothing already read is read again.
  std::uint64_t drop_behind_bytes = 32u << 20;
  /// Buffered only: end a sample before `duration` once its rate is steady, its figure then
  /// projected to the whole duration (bench/steady.hpp). Disabled: every sample runs `duration`.
  SteadyRule steady{};
};

/// The buffered workload of `disktune bench` and of every tune trial: 2 MiB reads from
/// offset 0 for `duration`, the default drop-behind, the steady stop (SteadyRule's defaults)
/// when `steady`. One definition, so a trial measures as
/// bench does.
Workload disk_read_workload(probe::Seconds duration, bool steady);

/// One sample of an objective (bench/objective.hpp). `value` is the objective's score
/// (higher is better): for the hdparm-style reads of this file, bytes over elapsed time in
/// MiB/s (2^20 bytes per second, as hdparm prints "MB/sec"): for buffered reads the bytes the
/// device delivered for the stream (delivered_bytes), readahead included, so no readahead
/// window is charged against the sample it was read in.
/// A sample that stopped early on a steady rate (`steady`) has the figure its whole duration
/// would have given at that rate (projected_rate); bytes and elapsed are what it read.
struct Sample {
  double value = 0.0;
  std::uint64_t bytes = 0;
  probe::Seconds elapsed{0.0};
  bool steady = false;
  /// The time waited after the clock stopped for the reads the sample left in flight
  /// (readahead; BlockIo::settle), so the next sample does not pay for them. Not in `elapsed`.
  probe::Seconds settled{0.0};
  /// Buffered: the bytes the device completed for the sample while its clock ran, readahead
  /// included (BlockIo::completed_bytes; `bytes` when unknown); `value` counts these. Else 0.
  std::uint64_t delivered_bytes = 0;
  /// fio: the reads the sample completed (jobs[].read.total_ios); 0 for the other engines.
  std::uint64_t completions = 0;
  /// A built-in percentile objective's sample through fio: its completion-latency histogram
  /// (fio's json+ clat_ns.bins), which run_adaptive pools over the samples; no bins otherwise.
  LatencyPool latency{};
};

/// "<value> (<bytes> bytes in <elapsed> s)", for test and log messages.
std::ostream& operator<<(std::ostream& out, const Sample& sample);
/// The samples, comma-separated in brackets (lets Catch2 print a Result<vector<Sample>>).
std::ostream& operator<<(std::ostream& out, const std::vector<Sample>& samples);

/// Run one sample, then (clock stopped) wait for the reads it left in flight (BlockIo::settle,
/// at most 10 s; Sample::settled). Buffered: flush_cache() first, then sequential reads from offset_bytes,
/// dropping the cache behind them every drop_behind_bytes, and at the device end flushing
/// and wrapping to offset_bytes, until `duration` has passed or (workload.steady) the rate
/// is steady (drops and wrap flushes are in the timed time, as fio times its cache invalidation). Cached: one read
/// to prime the cache, then re-read the same chunk until `duration` has passed.
/// Errors: the BlockIo's read, flush, drop or settle error (errc::timed_out: reads still in
/// flight after 10 s); errc::invalid_argument if the device is smaller than one chunk.
probe::Result<Sample> run_sample(probe::BlockIo& io, const Workload& workload);

/// Run `repeats` samples of the same workload (stops at the first error).
probe::Result<std::vector<Sample>> run_samples(probe::BlockIo& io, const Workload& workload,
                                               int repeats);

}  // namespace disktune::bench
