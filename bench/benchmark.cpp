// SPDX-License-Identifier: GPL-2.0-or-later
// hdparm -T / -t style read measurements over a probe::BlockIo, timed with its clock.
#include "bench/benchmark.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <vector>

namespace disktune::bench {
namespace {

constexpr std::size_t kPageBytes = 4096;  // O_DIRECT buffer alignment
constexpr double kMibBytes = 1024.0 * 1024.0;  // hdparm's "MB"
// How long a sample waits for the reads it left in flight: far more than any readahead
// window takes on a working device (16 MiB at 2 MiB/s), far less than a trial's timeout.
constexpr probe::Seconds kSettleBound{10.0};

struct FreeDeleter {
  void operator()(std::byte* memory) const { std::free(memory); }
};
using PageBuffer = std::unique_ptr<std::byte[], FreeDeleter>;

// One page-aligned buffer per run_sample call, so O_DIRECT BlockIos accept it.
PageBuffer allocate_page_buffer(std::uint64_t bytes) {
  const std::size_t rounded = (bytes + kPageBytes - 1) / kPageBytes * kPageBytes;
  auto* memory = static_cast<std::byte*>(std::aligned_alloc(kPageBytes, rounded));
  if (memory == nullptr) throw std::bad_alloc();
  return PageBuffer(memory);
}

probe::Result<void> check_region(const probe::BlockIo& io, const Workload& workload) {
  const std::uint64_t size = io.size_bytes();
  if (workload.offset_bytes > size || size - workload.offset_bytes < workload.chunk_bytes) {
    return probe::Error{std::make_error_code(std::errc::invalid_argument),
                        "benchmark: device smaller than one " +
                            std::to_string(workload.chunk_bytes) + "-byte chunk from offset " +
                            std::to_string(workload.offset_bytes) + " (size " +
                            std::to_string(size) + " bytes)",
                        ""};
  }
  return {};
}

// Ends a sample early once workload.steady finds its rate steady: remembers every chunk's end.
class SteadyStop {
 public:
  explicit SteadyStop(const Workload& workload) : workload_(workload) {}

  // After each chunk: true = stop now, `sample` then holds the projected figure.
  bool stop(Sample& sample) {
    if (!workload_.steady.enabled) return false;
    ends_.push_back(sample.elapsed.count());
    const double duration_s = workload_.duration.count();
    if (sample.elapsed.count() >= duration_s) return false;
    const auto rate = steady_rate(ends_, workload_.chunk_bytes, workload_.steady, duration_s);
    if (!rate) return false;
    sample.value = projected_rate(sample.bytes, sample.elapsed.count(), *rate, duration_s) / kMibBytes;
    sample.steady = true;
    rate_ = *rate;
    return true;
  }

  // The figure of `sample` had it read `bytes`: projected at the steady rate when it stopped
  // early, bytes over elapsed otherwise.
  [[nodiscard]] double figure(const Sample& sample, std::uint64_t bytes) const {
    if (!sample.steady)
      return static_cast<double>(bytes) / kMibBytes / sample.elapsed.count();
    return projected_rate(bytes, sample.elapsed.count(), rate_, workload_.duration.count()) / kMibBytes;
  }

 private:
  const Workload& workload_;
  std::vector<double> ends_;
  double rate_ = 0.0;  // bytes per second of the steady window, once stop() returned true
};

// Calls `read_one` until the elapsed time reaches `duration` or `steady` stops it (at least once).
template <class ReadOne>
probe::Result<Sample> timed_reads(probe::Clock& clock, const Workload& workload, ReadOne read_one,
                                  SteadyStop* steady = nullptr) {
  Sample sample;
  const probe::Seconds start = clock.now();
  do {
    if (auto step = read_one(); !step) return step.error();
    sample.bytes += workload.chunk_bytes;
    sample.elapsed = clock.now() - start;
    if (steady && steady->stop(sample)) return sample;
  } while (sample.elapsed < workload.duration);
  sample.value = static_cast<double>(sample.bytes) / kMibBytes / sample.elapsed.count();
  return sample;
}

// hdparm -T: prime the page cache with one chunk, then time re-reads of that chunk.
probe::Result<Sample> run_cached(probe::BlockIo& io, const Workload& workload,
                                 std::span<std::byte> buffer) {
  if (auto primed = io.read_at(workload.offset_bytes, buffer); !primed) return primed.error();
  return timed_reads(io.clock(), workload,
                     [&]() { return io.read_at(workload.offset_bytes, buffer); });
}

// Drops the page cache of [dropped, position) once it reaches workload.drop_behind_bytes.
probe::Result<void> drop_behind(probe::BlockIo& io, const Workload& workload,
                                std::uint64_t position, std::uint64_t& dropped) {
  if (workload.drop_behind_bytes == 0 || position - dropped < workload.drop_behind_bytes)
    return {};
  if (auto done = io.drop_cached(dropped, position - dropped); !done) return done.error();
  dropped = position;
  return {};
}

// hdparm -t with an explicit flush first. Reads whole chunks, dropping the cache behind
// them; when the next chunk would cross the device end (a tail shorter than a chunk is
// never read) it flushes again and wraps to offset_bytes, so wrapped reads come from the
// device and not the page cache. Drops and wrap flushes are timed, as fio times its
// invalidation (they are the price of reading the device through the page cache again).
probe::Result<Sample> run_buffered(probe::BlockIo& io, const Workload& workload,
                                   std::span<std::byte> buffer) {
  if (auto flushed = io.flush_cache(); !flushed) return flushed.error();
  std::uint64_t position = workload.offset_bytes;
  std::uint64_t dropped = position;  // the cache below `dropped` is already dropped
  SteadyStop steady(workload);
  auto sample = timed_reads(io.clock(), workload, [&]() -> probe::Result<void> {
    if (io.size_bytes() - position < workload.chunk_bytes) {
      if (auto flushed = io.flush_cache(); !flushed) return flushed.error();
      position = dropped = workload.offset_bytes;
    }
    if (auto read = io.read_at(position, buffer); !read) return read.error();
    position += workload.chunk_bytes;
    return drop_behind(io, workload, position, dropped);
  }, &steady);
  // Count what the device delivered for the stream, readahead included: a reader that keeps
  // reading consumes it, and a large readahead would otherwise lose by its window over the
  // sample (filled at the start, in flight at the end) on a device that it cannot slow.
  if (sample) {
    const std::optional<std::uint64_t> delivered = io.completed_bytes();
    sample->delivered_bytes = delivered ? std::max(*delivered, sample->bytes) : sample->bytes;
    sample->value = steady.figure(*sample, sample->delivered_bytes);
  }
  return sample;
}

}  // namespace

std::string_view to_string(Method method) {
  switch (method) {
    case Method::cached:
      return "cached";
    case Method::buffered:
      return "buffered";
  }
  DT_ASSERT(false && "unknown bench::Method");
  return {};
}

std::ostream& operator<<(std::ostream& out, const Sample& sample) {
  return out << sample.value << " (" << sample.bytes << " bytes in "
             << sample.elapsed.count() << " s)";
}

std::ostream& operator<<(std::ostream& out, const std::vector<Sample>& samples) {
  out << '[';
  for (std::size_t i = 0; i < samples.size(); ++i) out << (i ? ", " : "") << samples[i];
  return out << ']';
}

Workload disk_read_workload(probe::Seconds duration, bool steady) {
  Workload workload;
  workload.method = Method::buffered;
  workload.duration = duration;
  workload.steady.enabled = steady;
  return workload;
}

probe::Result<Sample> run_sample(probe::BlockIo& io, const Workload& workload) {
  DT_ASSERT(workload.chunk_bytes > 0);
  DT_ASSERT(workload.duration > probe::Seconds{0.0});
  if (auto fits = check_region(io, workload); !fits) return fits.error();
  const PageBuffer memory = allocate_page_buffer(workload.chunk_bytes);
  const std::span<std::byte> buffer(memory.get(), workload.chunk_bytes);
  probe::Result<Sample> sample = workload.method == Method::cached
                                     ? run_cached(io, workload, buffer)
                                     : run_buffered(io, workload, buffer);
  if (!sample) return sample;
  auto settled = io.settle(kSettleBound);
  if (!settled) return settled.error();
  sample->settled = *settled;
  return sample;
}

probe::Result<std::vector<Sample>> run_samples(probe::BlockIo& io, const Workload& workload,
                                               int repeats) {
  DT_ASSERT(repeats >= 0);
  std::vector<Sample> samples;
  samples.reserve(static_cast<std::size_t>(repeats));
  for (int i = 0; i < repeats; ++i) {
    probe::Result<Sample> sample = run_sample(io, workload);
    if (!sample) return sample.error();
    samples.push_back(*sample);
  }
  return samples;
}

}  // namespace disktune::bench
