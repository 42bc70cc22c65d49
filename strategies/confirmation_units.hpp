// SPDX-License-Identifier: GPL-2.0-or-later
// The confirmation round as units: each contender's unit a trial of its own through the executor, pooled into one result.
#pragma once

#include "probe/settings.hpp"
#include "strategies/stop.hpp"
#include "strategies/trial.hpp"
#include "strategies/trial_executor.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace disktune::strategies {

/// Called before each unit of a round is applied, with its pass (1-based) and its contender's
/// index ([0] the baseline): writes the unit's intent record (TrialStore::begin_unit). A Stop
/// (store_failed) when it could not: the unit is not run.
using UnitBegin = std::function<std::optional<Stop>(int pass, std::size_t contender)>;

/// A confirmation round: `passes` passes, each measuring every contender still ok in turn
/// (A B C A B C ...: the interleaving spreads drift over all of them). Each unit is one
/// TrialKind::confirmation_unit trial through `executor.run`, the path every trial takes (apply,
/// read back, kernel-log watch, a warm-up and one kept sample, checksum, restore, read back),
/// after `begin` wrote its intent; `progress` once per unit, in order. A contender whose unit
/// did not end ok is not measured again. Results: one per contender, in order, each kept sample
/// [score] pooled (add_unit, confirmation_end). A Stop: a stop asked for from outside
/// (TrialExecutor::pending_stop, checked before each unit), the executor's (signal, wedged,
/// restore_failed, unreadable) or `begin`'s.
Confirmed confirm_units(TrialExecutor& executor, const std::vector<probe::Settings>& contenders, int passes,
                        const ConfirmProgress& progress, const UnitBegin& begin);

/// One result per contender, in order, before any unit: settings set, status ok, nothing measured.
std::vector<TrialResult> confirmation_start(const std::vector<probe::Settings>& contenders);

/// One unit (a TrialKind::confirmation_unit trial: a warm-up and one kept sample [score]) into
/// its contender's result: the kept sample, its latency bins (a percentile's figure pools its
/// units' completions), its measurement time [s] and kernel-log lines added; a unit that did
/// not end ok fails the contender with its status and detail (it is not measured again).
void add_unit(TrialResult& contender, const TrialResult& unit);

/// The round's results: sampling_stop "confirmation", and every ok contender with samples
/// summarized (summarize_samples).
std::vector<TrialResult> confirmation_end(std::vector<TrialResult> results);

}  // namespace disktune::strategies
