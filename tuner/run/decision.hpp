// SPDX-License-Identifier: GPL-2.0-or-later
// The end of a search: the finalists' confirmation round and the winner it decides.
#pragma once

#include "strategies/confirmation.hpp"
#include "strategies/evaluator.hpp"
#include "strategies/stop.hpp"
#include "strategies/trial_store.hpp"
#include "strategies/winner_rule.hpp"

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace disktune::tuner {

/// Runs round `round` (0, then the extra rounds: strategies::ConfirmRunner) of the
/// confirmation of `contenders` ([0] the baseline): Evaluator::confirm (the run's store and
/// executor). A Stop as Evaluator::confirm gives it.
using RoundRunner = std::function<strategies::Rounded(const std::vector<probe::Settings>& contenders, int round)>;

/// The decided outcome of a search.
struct Decision {
  strategies::TrialResult winner;                        ///< as confirmed; the baseline's trial (id 0) to keep it
  std::optional<strategies::Confirmation> confirmation;  ///< nullopt when no finalist beat the baseline or skipped
  std::string round_skipped;  ///< why the round was skipped: the winner is then the search's best, unconfirmed
  /// The tie the winner rule broke for a simpler winner (strategies::tie_break), judged on the
  /// round's figures (the search's when the round was skipped); nullopt when none was.
  std::optional<strategies::TieBreak> tie{};
  /// The finalists the round left tied with its winner (strategies::unseparated_from on the
  /// round's figures); empty when the baseline is kept or the round was skipped.
  std::vector<strategies::Unseparated> unseparated{};
  /// Seconds a round measured whose figures were dropped (its baseline did not measure): the
  /// run's measured time still counts them.
  double dropped_round_s = 0.0;
};

/// Take up to `finalist_count` finalists from the evaluator (strategies::finalists) and,
/// when there are any, decide between them and the baseline in a confirmation round run by
/// `round` (strategies::confirm with the evaluator's gain threshold, at most
/// `max_extra_rounds` extra rounds, the round in two calls with `in_two_calls`). A skipped first round leaves the search's best
/// (Evaluator::best(): the baseline when no trial beat it significantly, never a near tie the
/// round was to decide) as the winner, with Decision::round_skipped set; a skipped extra round ends the
/// extension. A Stop: the one a round ran into (restore_failed, wedged, signal, store_failed).
std::variant<Decision, strategies::Stop> decide(const strategies::Evaluator& evaluator, const RoundRunner& round,
                               std::size_t finalist_count = 3,
                               int max_extra_rounds = strategies::kMaxExtraConfirmRounds, bool in_two_calls = false);

}  // namespace disktune::tuner
