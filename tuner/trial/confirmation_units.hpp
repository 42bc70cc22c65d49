// SPDX-License-Identifier: GPL-2.0-or-later
// The confirmation round's figures: each contender's units (trials of their own) pooled into one result.
#pragma once

#include "probe/settings.hpp"
#include "strategies/trial.hpp"

#include <vector>

namespace disktune::tuner {

/// One result per contender, in order, before any unit: settings set, status ok, nothing measured.
std::vector<strategies::TrialResult> confirmation_start(const std::vector<probe::Settings>& contenders);

/// One unit (a TrialKind::confirmation_unit trial: a warm-up and one kept sample [score]) into
/// its contender's result: the kept sample, its latency bins (a percentile's figure pools its
/// units' completions), its measurement time [s] and kernel-log lines added; a unit that did
/// not end ok fails the contender with its status and detail (it is not measured again).
void add_unit(strategies::TrialResult& contender, const strategies::TrialResult& unit);

/// The round's results: sampling_stop "confirmation", and every ok contender with samples
/// summarized (strategies::summarize_samples).
std::vector<strategies::TrialResult> confirmation_end(std::vector<strategies::TrialResult> results);

}  // namespace disktune::tuner
