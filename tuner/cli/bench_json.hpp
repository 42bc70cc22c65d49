// SPDX-License-Identifier: GPL-2.0-or-later
// The figures `disktune bench --json` prints for a set of samples: their median and the 95 %
// interval of that median, each null when nothing was measured.
#pragma once

#include <boost/json/value.hpp>

#include <vector>

namespace disktune::tuner {

/// The median of `figures` (any unit: MiB/s, IOPS, us), or null when `figures` is empty
/// (a --method that skipped the measurement).
boost::json::value median_or_null(const std::vector<double>& figures);

/// {low, high, coverage}: the distribution-free 95 % interval of the median of `figures`
/// (bench::median_interval: order statistics, exact binomial coverage, so 2 samples give
/// min..max at coverage 0.5 and 9 give the 2nd..8th at 0.961), in `figures`' own unit; null
/// when `figures` is empty. A latency's interval is of the latency (low is the faster end).
boost::json::value median_interval_or_null(const std::vector<double>& figures);

}  // namespace disktune::tuner
