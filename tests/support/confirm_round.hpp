// SPDX-License-Identifier: GPL-2.0-or-later
// A confirmation round of a TrialRunner as the Evaluator takes it, for the runner's tests.
#pragma once

#include "strategies/confirmation_units.hpp"
#include "tuner/trial/child_executor.hpp"
#include "tuner/trial/trial_runner.hpp"

#include <optional>
#include <system_error>
#include <vector>

namespace disktune::testing {

/// strategies::confirm_units through a ChildExecutor over `runner` (no outside stop, no intent
/// records): `rounds` passes (TrialSettings::confirm_rounds when not given), `progress` per
/// unit. The round's results, or its Stop as an error carrying the stop's message.
inline probe::Result<std::vector<strategies::TrialResult>> confirm_round(
    tuner::TrialRunner& runner, const std::vector<probe::Settings>& contenders,
    const strategies::ConfirmProgress& progress = {}, std::optional<int> rounds = std::nullopt) {
  tuner::ChildExecutor executor(runner, {});
  auto confirmed = strategies::confirm_units(executor, contenders, rounds.value_or(runner.settings().confirm_rounds),
                                             progress, {});
  if (auto* stop = std::get_if<strategies::Stop>(&confirmed))
    return probe::Error{std::make_error_code(std::errc::io_error), stop->message, "the confirmation round"};
  return std::move(std::get<std::vector<strategies::TrialResult>>(confirmed));
}

}  // namespace disktune::testing
