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

/// The one-setting moves around `from` (every other choice of each group in `groups`, or of
/// every group when `groups` is empty, the other groups held) that `evaluator` has not
/// measured yet and may still measure (not quarantined): what one coordinate-descent pass
/// from `from` costs in new trials.
std::size_t unmeasured_moves(const SearchSpace& space, const Evaluator& evaluator, const probe::Settings& from,
                             const std::vector<std::size_t>& groups = {});

/// coordinate-descent's forecast (its count is not known in advance): during the coarse
/// screening (coarse_screening_trials), twice its trials (the depth where knobs act and the
/// passes cost about as much again on the simulated drives); after it, the trials so far, the
/// acting groups' single changes still to screen, the pass around the best so far under way
/// over the acting groups (unmeasured_moves), half a pass more for every group whose screening
/// trial was significantly faster than the baseline while the best still holds the baseline's
/// value there (a move a later pass is likely to make, and each move brings another pass;
/// half, because a pass after a move finds the moved group's and earlier moves already
/// measured), and the combination step. Refined after every trial; checked within a factor of
/// 2 of the time left on the simulated drives of tests/strategies/forecast_test.cpp. Its
/// fewest: the coarse screening's trials while it runs (it runs whole unless a bound or
/// quarantine cuts it), after it the trials so far (a pass that moves nothing may end it).
TrialForecast coordinate_descent_forecast(const SearchSpace& space, const Evaluator& evaluator);

}  // namespace disktune::strategies
