// SPDX-License-Identifier: GPL-2.0-or-later
// The end of a search: the finalists' confirmation round and the winner it decides.
#pragma once

#include "strategies/confirmation.hpp"
#include "tuner/trial_runner.hpp"

#include <optional>

namespace disktune::tuner {

/// The decided outcome of a search.
struct Decision {
  strategies::TrialResult winner;                        ///< as confirmed; the baseline's trial (id 0) to keep it
  std::optional<strategies::Confirmation> confirmation;  ///< nullopt when no finalist beat the baseline
};

/// Take up to `finalist_count` finalists from the evaluator (strategies::finalists) and,
/// when there are any, decide between them and the baseline in a confirmation round
/// (TrialRunner::confirm, strategies::confirm with the evaluator's gain threshold).
/// Errors: the original settings could not be restored after the round.
probe::Result<Decision> decide(const strategies::Evaluator& evaluator, TrialRunner& runner,
                               std::size_t finalist_count = 3);

}  // namespace disktune::tuner
