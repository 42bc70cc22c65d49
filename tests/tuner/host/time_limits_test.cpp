// SPDX-License-Identifier: GPL-2.0-or-later
// Trial time limits derived from the baseline's rate.
#include "tuner/host/time_limits.hpp"

#include <catch2/catch.hpp>

using namespace disktune;

TEST_CASE("the trial time limit follows the measured rate, the duration and the chunk", "[tuner]") {
  const tuner::TrialShape shape{probe::Seconds(0.5), 3, 4, 2u << 20};
  // 256 KiB/s: a 2 MiB chunk takes 8 s, every sample reads at least one; the checksum 2 s.
  const double slow = tuner::trial_time_limit(shape, 0.25, false).count();
  REQUIRE(slow == Approx(2.0 * (5 * (0.5 + 8.0 + 2.5) + 2.0 + 5.0) + 10.0));
  // The baseline's child also times the cached reads: 3 x (2 s + one chunk).
  REQUIRE(tuner::trial_time_limit(shape, 0.25, true).count() == Approx(slow + 2.0 * 3 * (2.0 + 8.0)));
  // At 200 MiB/s the chunk takes 0.01 s: the duration dominates.
  REQUIRE(tuner::trial_time_limit(shape, 200.0, false).count() ==
          Approx(2.0 * (5 * (0.5 + 0.01 + 2.5) + 0.0025 + 5.0) + 10.0));
  // Before any rate is known, every chunk may take the whole stall limit.
  REQUIRE(tuner::first_baseline_time_limit(shape, probe::Seconds(30.0)).count() ==
          Approx(2.0 * (5 * (0.5 + 30.0 + 2.5) + 30.0 + 5.0 + 3 * (2.0 + 30.0)) + 10.0));
}
