// SPDX-License-Identifier: GPL-2.0-or-later
// Finalists, confirmation round, winner.
#include "tuner/decision.hpp"

namespace disktune::tuner {

probe::Result<Decision> decide(const strategies::Evaluator& evaluator, const RoundRunner& round_runner,
                               std::size_t finalist_count) {
  Decision decision{evaluator.baseline(), std::nullopt, ""};
  const auto finals = strategies::finalists(evaluator, finalist_count);
  if (finals.empty()) return decision;
  std::optional<probe::Error> failure;
  auto round = strategies::confirm(
      evaluator.baseline().settings, finals,
      [&](const std::vector<probe::Settings>& contenders) {
        auto ran = round_runner(contenders);
        if (ran && ran->skipped.empty()) return std::move(ran->results);
        if (ran) decision.round_skipped = ran->skipped;
        else failure = ran.error();
        return std::vector<strategies::TrialResult>(contenders.size());
      },
      evaluator.gain_threshold());
  if (failure) return *failure;
  if (!decision.round_skipped.empty()) {
    decision.winner = finals.front();
    return decision;
  }
  decision.winner = round.results[round.winner];
  if (round.winner == 0) decision.winner = evaluator.baseline();
  decision.confirmation = std::move(round);
  return decision;
}

}  // namespace disktune::tuner
