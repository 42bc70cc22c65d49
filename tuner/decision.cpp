// SPDX-License-Identifier: GPL-2.0-or-later
// Finalists, confirmation round, winner.
#include "tuner/decision.hpp"

namespace disktune::tuner {

probe::Result<Decision> decide(const strategies::Evaluator& evaluator, TrialRunner& runner,
                               std::size_t finalist_count) {
  Decision decision{evaluator.baseline(), std::nullopt};
  const auto finals = strategies::finalists(evaluator, finalist_count);
  if (finals.empty()) return decision;
  std::optional<probe::Error> failure;
  auto round = strategies::confirm(
      evaluator.baseline().settings, finals,
      [&](const std::vector<probe::Settings>& contenders) {
        auto results = runner.confirm(contenders);
        if (results) return std::move(*results);
        failure = results.error();
        return std::vector<strategies::TrialResult>(contenders.size());
      },
      evaluator.gain_threshold());
  if (failure) return *failure;
  decision.winner = round.results[round.winner];
  if (round.winner == 0) decision.winner = evaluator.baseline();
  decision.confirmation = std::move(round);
  return decision;
}

}  // namespace disktune::tuner
