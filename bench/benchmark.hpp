// SPDX-License-Identifier: GPL-2.0-or-later
// hdparm-style read measurements: cached reads (-T) and buffered disk reads (-t).
#pragma once

#include "bench/clock.hpp"
#include "probe/block_io.hpp"
#include "probe/error.hpp"

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace disktune::bench {

/// What is measured. Numbers from different methods are never compared (DESIGN.md).
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
  Seconds duration{3.0};                   ///< minimum timed duration
};

/// One sample: bytes read over elapsed time. MB/s is MiB/s (2^20), as hdparm prints.
struct Sample {
  double mib_s = 0.0;
  std::uint64_t bytes = 0;
  Seconds elapsed{0.0};
};

/// "<mib_s> MiB/s (<bytes> bytes in <elapsed> s)", for test and log messages.
std::ostream& operator<<(std::ostream& out, const Sample& sample);
/// The samples, comma-separated in brackets (lets Catch2 print a Result<vector<Sample>>).
std::ostream& operator<<(std::ostream& out, const std::vector<Sample>& samples);

/// Run one sample. Buffered: flush_cache() first, then sequential reads from offset_bytes,
/// wrapping to offset_bytes at the device end, until `duration` has passed. Cached: one read
/// to prime the cache, then re-read the same chunk until `duration` has passed.
/// Errors: the BlockIo's read or flush error; errc::invalid_argument if the device is
/// smaller than one chunk.
probe::Result<Sample> run_sample(probe::BlockIo& io, const Workload& workload);

/// Run `repeats` samples of the same workload (stops at the first error).
probe::Result<std::vector<Sample>> run_samples(probe::BlockIo& io, const Workload& workload,
                                               int repeats);

}  // namespace disktune::bench
