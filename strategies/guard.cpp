// SPDX-License-Identifier: GPL-2.0-or-later
// The guard rule and the Pareto set.
#include "strategies/guard.hpp"

namespace disktune::strategies {
namespace {

double guard_score(const TrialResult& trial) { return trial.guard ? trial.guard->median : 0.0; }

// a is at least as good as b on both scores and better on one.
bool dominates(const TrialResult& a, const TrialResult& b) {
  const bool no_worse = a.median >= b.median && guard_score(a) >= guard_score(b);
  return no_worse && (a.median > b.median || guard_score(a) > guard_score(b));
}

}  // namespace

std::optional<double> guard_shortfall(const TrialResult& trial, const TrialResult& baseline) {
  if (!trial.guard || !baseline.guard || baseline.guard->median <= 0.0) return std::nullopt;
  return 1.0 - trial.guard->median / baseline.guard->median;
}

bool fails_guard(const TrialResult& trial, const TrialResult& baseline, double tolerance) {
  const auto shortfall = guard_shortfall(trial, baseline);
  return shortfall && trial.guard->median < (1.0 - tolerance) * baseline.guard->median;
}

std::vector<int> pareto_ids(const std::vector<TrialResult>& trials) {
  std::vector<int> ids;
  for (const auto& trial : trials) {
    if (trial.status != TrialStatus::ok) continue;
    bool dominated = false;
    for (const auto& other : trials)
      dominated = dominated || (other.status == TrialStatus::ok && dominates(other, trial));
    if (!dominated) ids.push_back(trial.id);
  }
  return ids;
}

}  // namespace disktune::strategies
