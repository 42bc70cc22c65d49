// SPDX-License-Identifier: GPL-2.0-or-later
// The guard objective's rule (`--objective A,B`) and the Pareto set over (A score, B score).
#pragma once

#include "strategies/trial.hpp"

#include <optional>
#include <vector>

namespace disktune::strategies {

/// How far `trial`'s guard median lies below the baseline's, as a fraction of the baseline's
/// (0.091 = 9.1 % below; negative when above). nullopt when either has no guard figures or
/// the baseline's guard median is not positive (nothing to compare).
std::optional<double> guard_shortfall(const TrialResult& trial, const TrialResult& baseline);

/// True when `trial` fails the guard: its guard score is below (1 − tolerance) × the
/// baseline's (tolerance a fraction, --tolerance). A trial without guard figures (no guard
/// objective, a confirmation figure) never fails it; the baseline never fails its own guard.
bool fails_guard(const TrialResult& trial, const TrialResult& baseline, double tolerance);

/// Ids of the Pareto set of the ok trials among `trials` over (median, guard median), both
/// scores (higher is better): a trial is in it when no other ok trial is at least as good on
/// both and better on one. Equal pairs are all kept. Trials without guard figures count
/// with median only (guard score 0). In the order of `trials`. Errors: none.
std::vector<int> pareto_ids(const std::vector<TrialResult>& trials);

}  // namespace disktune::strategies
