// SPDX-License-Identifier: GPL-2.0-or-later
// Trial-count forecasts: how many trials a search takes, for the progress line's time left.
#pragma once

#include "strategies/evaluator.hpp"
#include "strategies/search_space.hpp"
#include "strategies/strategy.hpp"

#include <cstddef>
#include <vector>

namespace disktune::strategies {

/// The screening phase's trials (screen_single_changes): every group's choices that differ
/// from the baseline, one group changed at a time. Quarantine and the budget may cut it.
std::size_t screening_trials(const SearchSpace& space);

/// coordinate-descent's forecast (its count is not known in advance), from two rehearsals of
/// the search (strategies/rehearsal.hpp: coordinate-descent run again on the trials so far,
/// each new one predicted from the measured configuration nearest it and the single changes'
/// effects), so the count follows the strategy's own rules, --max-trials and --time-budget:
/// `most` with every predicted gain holding, `fewest` with none (and the coarse screening run
/// whole), `total` halfway between them plus the trials in hand again at the chance that a
/// trial moves the search (the Laplace estimate of the share of trials so far clearly faster
/// than every one before them, at most a half); `seconds` the rehearsals' predicted
/// measurement time for each, combined the same way. Refined after every trial; checked
/// against the trials and time the search then took on the simulated drives of
/// tests/strategies/forecast_test.cpp.
TrialForecast coordinate_descent_forecast(const SearchSpace& space, const Evaluator& evaluator);

}  // namespace disktune::strategies
