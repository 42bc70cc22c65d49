// SPDX-License-Identifier: GPL-2.0-or-later
// The confirmation round's figures from its units.
#include "tuner/trial/confirmation_units.hpp"

#include "bench/latency_pool.hpp"

namespace disktune::tuner {

using strategies::TrialResult;
using strategies::TrialStatus;

std::vector<TrialResult> confirmation_start(const std::vector<probe::Settings>& contenders) {
  std::vector<TrialResult> results(contenders.size());
  for (std::size_t i = 0; i < contenders.size(); ++i) {
    results[i].settings = contenders[i];
    results[i].status = TrialStatus::ok;
  }
  return results;
}

void add_unit(TrialResult& contender, const TrialResult& unit) {
  contender.measured_s += unit.measured_s;
  contender.kernel_log.insert(contender.kernel_log.end(), unit.kernel_log.begin(), unit.kernel_log.end());
  if (unit.status != TrialStatus::ok || unit.samples.empty()) {
    contender.status = unit.status == TrialStatus::ok ? TrialStatus::error : unit.status;
    contender.detail = unit.detail.empty() ? "the unit kept no sample" : unit.detail;
    return;
  }
  contender.samples.push_back(unit.samples.back());
  if (unit.latency) {
    if (!contender.latency) contender.latency = bench::LatencyPool{unit.latency->fraction, {}};
    bench::add_bins(*contender.latency, unit.latency->bins);
  }
}

std::vector<TrialResult> confirmation_end(std::vector<TrialResult> results) {
  for (auto& trial : results) {
    trial.sampling_stop = "confirmation";
    if (trial.status == TrialStatus::ok && !trial.samples.empty()) strategies::summarize_samples(trial);
  }
  return results;
}

}  // namespace disktune::tuner
