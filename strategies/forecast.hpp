// SPDX-License-Identifier: GPL-2.0-or-later
// Trial-count forecasts: how many trials a search takes, for the progress line's time left.
#pragma once

#include "strategies/evaluator.hpp"
#include "strategies/search_space.hpp"
#include "strategies/strategy.hpp"

#include <cstddef>

namespace disktune::strategies {

/// The screening phase's trials (screen_single_changes): every group's choices that differ
/// from the baseline, one group changed at a time. Quarantine and the budget may cut it.
std::size_t screening_trials(const SearchSpace& space);

/// The one-setting moves around `from` (every group's other choices, the other groups held)
/// that `evaluator` has not measured yet and may still measure (not quarantined): what one
/// coordinate-descent pass from `from` costs in new trials.
std::size_t unmeasured_moves(const SearchSpace& space, const Evaluator& evaluator, const probe::Settings& from);

/// coordinate-descent's forecast (its count is not known in advance): during screening, the
/// screening and one pass from a moved incumbent (the screening minus its largest group);
/// after it, the trials so far, the pass around the best so far under way (unmeasured_moves),
/// half a pass more for every group whose screening trial was significantly faster than the
/// baseline while the best still holds the baseline's value there (a move a later pass is
/// likely to make, and each move brings another pass; half, because a pass after a move
/// finds the moved group's and earlier moves already measured: calibrated on the simulated
/// drives of tests/tuner/run/forecast_test.cpp, where a whole pass each over-estimated 1.3-2x and
/// none 1.4-2.2x short), and the combination step. Refined after every trial.
TrialForecast coordinate_descent_forecast(const SearchSpace& space, const Evaluator& evaluator);

}  // namespace disktune::strategies
