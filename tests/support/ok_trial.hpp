// SPDX-License-Identifier: GPL-2.0-or-later
// An ok trial with a given median and 95 % interval, for strategy tests.
#pragma once

#include "strategies/trial.hpp"

namespace disktune::testing {

/// An ok TrialResult of one sample `median` with the interval [low, high] (score unit).
inline strategies::TrialResult ok_trial(double median, double low, double high) {
  strategies::TrialResult t;
  t.status = strategies::TrialStatus::ok;
  t.median = median;
  t.samples = {median};
  t.ci_low = low;
  t.ci_high = high;
  return t;
}

}  // namespace disktune::testing
