// SPDX-License-Identifier: GPL-2.0-or-later
// Sampler: one sample of an objective on the device under test, whatever engine takes it.
#pragma once

#include "bench/benchmark.hpp"

namespace disktune::bench {

/// Takes one sample of an objective (bench/objective.hpp) on the device under test. The trial
/// child, `disktune bench` and the confirmation round sample only through this, so every engine
/// (hdparm-style reads, a fio subprocess, the simulated drive's model) is measured by the same
/// adaptive loop (bench/adaptive.hpp). A sampler must see the settings as they are when
/// sample() is called (open the device after applying: a file's readahead is fixed at open).
class Sampler {
 public:
  virtual ~Sampler() = default;
  /// One sample. Sample::value is the objective's score (score_of: higher is better),
  /// Sample::bytes what was read, Sample::elapsed the timed time. Errors: the engine's (a read
  /// error, fio's failure with its message).
  virtual probe::Result<Sample> sample() = 0;
  /// The warm-up sample run_adaptive takes first and discards; by default sample(). An engine
  /// may take a shorter one: it only has to bring the device and memory to their running state.
  virtual probe::Result<Sample> warmup() { return sample(); }
  /// One sample that ends after `completions` completions or where sample() ends, whichever
  /// comes first: what a pooled percentile still needs (run_adaptive sizes a percentile's later
  /// samples by the interval the first gave). By default sample(): an engine that cannot stop at
  /// a count (hdparm-style reads, a fio:FILE job) takes a whole sample. Precondition: completions >= 1.
  virtual probe::Result<Sample> sample_completions(std::uint64_t completions) {
    (void)completions;
    return sample();
  }
};

/// The seq-read sampler: run_sample(io, workload) on an open BlockIo (hdparm -t semantics).
/// Its warm-up lasts a third of the duration (at least 0.1 s), as fio's (builtin_warmup), and
/// with the steady stop on may end sooner: it only brings the device to the configuration's
/// running state (every sample flushes the page cache first). A whole-length warm-up took as
/// long as a kept sample where the rate is low, and a configuration the hopeless stop ends
/// paid it twice (2.8 s at 12.7 MB/s on the throttled bed, a third of a bad start's tune).
/// Keeps references: `io` and `workload` must outlive it.
class ReadSampler final : public Sampler {
 public:
  ReadSampler(probe::BlockIo& io, const Workload& workload)
      : io_(io), workload_(workload), warmup_(workload) {
    warmup_.duration = probe::Seconds(std::min(workload.duration.count(), std::max(0.1, workload.duration.count() / 3.0)));
  }
  probe::Result<Sample> sample() override { return run_sample(io_, workload_); }
  probe::Result<Sample> warmup() override { return run_sample(io_, warmup_); }

 private:
  probe::BlockIo& io_;
  const Workload& workload_;
  Workload warmup_;
};

}  // namespace disktune::bench
