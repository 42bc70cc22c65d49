// SPDX-License-Identifier: GPL-2.0-or-later
// Time limits of trials on a real device, derived from what was measured.
#pragma once

#include "probe/core/clock.hpp"

#include <cstdint>

namespace disktune::tuner {

/// What a trial's length follows from: the options and the workload.
struct TrialShape {
  probe::Seconds duration{3.0};       ///< --duration: timed seconds per sample
  int min_samples = 3;                ///< --repeats
  int max_samples = 10;               ///< --max-repeats (a warm-up sample comes on top)
  std::uint64_t chunk_bytes = 2u << 20;
};

/// Allowance per sample for the flush and the drops behind the reads [s].
inline constexpr double kFlushAllowanceS = 2.5;
/// Longest silence (no heartbeat, no sector read by the device) the first baseline child may
/// have: before anything is measured, a stall limit cannot come from a rate [s].
inline constexpr double kFirstStallS = 30.0;

/// Wall time a trial at `rate_mib_s` (> 0) may take before it is killed: twice the expected
/// time plus 10 s. Expected: max_samples + 1 samples of duration + one chunk's time at the
/// rate (a sample reads whole chunks until `duration` has passed) + the flush allowance,
/// the checksum reads (8 x 64 KiB at the rate) and 5 s of setup; `with_cached` adds the
/// baseline's cached-read samples (min_samples x (2 s + one chunk)).
probe::Seconds trial_time_limit(const TrialShape& shape, double rate_mib_s, bool with_cached);

/// The first baseline child's limit, before any rate is known: as trial_time_limit with
/// every chunk (and the checksum reads) taking the whole `stall` (the longest silence the
/// child may have). Bounds a child that keeps progressing; a hang ends at the stall limit.
probe::Seconds first_baseline_time_limit(const TrialShape& shape, probe::Seconds stall);

}  // namespace disktune::tuner
