// SPDX-License-Identifier: GPL-2.0-or-later
#include "tuner/cli/bench_json.hpp"

#include "bench/stats.hpp"

#include <boost/json.hpp>

namespace disktune::tuner {

boost::json::value median_or_null(const std::vector<double>& figures) {
  return figures.empty() ? boost::json::value(nullptr) : boost::json::value(bench::median(figures));
}

boost::json::value median_interval_or_null(const std::vector<double>& figures) {
  if (figures.empty()) return nullptr;
  const auto interval = bench::median_interval(figures, 0.95);
  return boost::json::object{{"low", interval.low}, {"high", interval.high}, {"coverage", interval.coverage}};
}

}  // namespace disktune::tuner
