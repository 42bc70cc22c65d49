// SPDX-License-Identifier: GPL-2.0-or-later
// FunctionExecutor's confirmation round.
#include "strategies/trial_executor.hpp"

namespace disktune::strategies {

Confirmed FunctionExecutor::confirm(const std::vector<probe::Settings>& contenders, int rounds,
                                    const ConfirmProgress& progress) {
  std::vector<TrialResult> results(contenders.size());
  for (std::size_t c = 0; c < contenders.size(); ++c) results[c].status = TrialStatus::ok;
  for (int round = 1; round <= rounds; ++round)
    for (std::size_t c = 0; c < contenders.size(); ++c) {
      const TrialResult unit = function_(contenders[c], TrialRequest{});
      if (unit.status != TrialStatus::ok) results[c] = unit;
      else if (results[c].status == TrialStatus::ok) results[c].samples.push_back(unit.median);
      if (progress) progress(ConfirmUnit{round, rounds, c, contenders.size(), unit.status, unit.median, unit.detail});
    }
  for (std::size_t c = 0; c < contenders.size(); ++c) {
    results[c].settings = contenders[c];
    results[c].sampling_stop = "confirmation";
    summarize_samples(results[c]);
  }
  return results;
}

}  // namespace disktune::strategies
