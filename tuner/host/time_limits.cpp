// SPDX-License-Identifier: GPL-2.0-or-later
// Trial time limits from the measured rate.
#include "tuner/host/time_limits.hpp"

#include "probe/core/assert.hpp"

namespace disktune::tuner {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kChecksumBytes = 8.0 * 64.0 * 1024.0;

// Twice the expected time plus 10 s, for `chunk_s` seconds per chunk and `checksum_s` for
// the integrity reads.
probe::Seconds limit_for(const TrialShape& shape, double chunk_s, double checksum_s, bool with_cached) {
  const double sample_s = shape.duration.count() + chunk_s + kFlushAllowanceS;
  double expected = (shape.max_samples + 1) * sample_s + checksum_s + 5.0;
  if (with_cached) expected += shape.min_samples * (2.0 + chunk_s);
  return probe::Seconds(2.0 * expected + 10.0);
}

}  // namespace

probe::Seconds trial_time_limit(const TrialShape& shape, double rate_mib_s, bool with_cached) {
  DT_ASSERT(rate_mib_s > 0.0);
  const double chunk_s = static_cast<double>(shape.chunk_bytes) / kMiB / rate_mib_s;
  return limit_for(shape, chunk_s, kChecksumBytes / kMiB / rate_mib_s, with_cached);
}

probe::Seconds first_baseline_time_limit(const TrialShape& shape, probe::Seconds stall) {
  return limit_for(shape, stall.count(), stall.count(), true);
}

}  // namespace disktune::tuner
