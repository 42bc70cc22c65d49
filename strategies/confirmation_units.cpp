// SPDX-License-Identifier: GPL-2.0-or-later
// The confirmation round as units through the executor, and their figures pooled per contender.
#include "strategies/confirmation_units.hpp"

#include "bench/latency_pool.hpp"

namespace disktune::strategies {
namespace {

// One unit: its intent, then its trial; the trial's measurement, or the stop either ran into.
Executed run_unit(TrialExecutor& executor, const probe::Settings& contender, int pass, std::size_t index,
                  const UnitBegin& begin) {
  if (auto stop = executor.pending_stop()) return std::move(*stop);
  if (begin)
    if (auto failed = begin(pass, index)) return std::move(*failed);
  TrialRequest unit;
  unit.kind = TrialKind::confirmation_unit;
  return executor.run(contender, unit);
}

}  // namespace

Confirmed confirm_units(TrialExecutor& executor, const std::vector<probe::Settings>& contenders, int passes,
                        const ConfirmProgress& progress, const UnitBegin& begin) {
  std::vector<TrialResult> results = confirmation_start(contenders);
  for (int pass = 1; pass <= passes; ++pass)
    for (std::size_t i = 0; i < contenders.size(); ++i) {
      if (results[i].status != TrialStatus::ok) continue;
      Executed ran = run_unit(executor, contenders[i], pass, i, begin);
      if (auto* stop = std::get_if<Stop>(&ran)) return std::move(*stop);
      add_unit(results[i], std::get<TrialMeasurement>(ran).trial);
      const TrialResult& contender = results[i];
      const bool ok = contender.status == TrialStatus::ok;
      if (progress)
        progress(ConfirmUnit{pass, passes, i, contenders.size(), contender.status, ok ? contender.samples.back() : 0.0,
                             contender.detail});
    }
  return confirmation_end(std::move(results));
}

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
    if (trial.status == TrialStatus::ok && !trial.samples.empty()) summarize_samples(trial);
  }
  return results;
}

}  // namespace disktune::strategies
