// SPDX-License-Identifier: GPL-2.0-or-later
// Finalists, confirmation round, winner.
#include "tuner/decision.hpp"

namespace disktune::tuner {

probe::Result<Decision> decide(const strategies::Evaluator& evaluator, const RoundRunner& round_runner,
                               std::size_t finalist_count, int max_extra_rounds) {
  Decision decision{evaluator.baseline(), std::nullopt, ""};
  const auto finals = strategies::finalists(evaluator, finalist_count);
  if (finals.empty()) return decision;
  std::optional<probe::Error> failure;
  auto round = strategies::confirm(
      evaluator.baseline().settings, finals,
      [&](const std::vector<probe::Settings>& contenders, int index) {
        auto ran = round_runner(contenders, index);
        if (ran && ran->skipped.empty()) return std::move(ran->results);
        if (!ran) failure = ran.error();
        else if (index == 0) decision.round_skipped = ran->skipped;
        // A failed or skipped round: results that are not ok (an extra round is then dropped).
        std::vector<strategies::TrialResult> none(contenders.size());
        for (auto& r : none) r.status = strategies::TrialStatus::error;
        return none;
      },
      evaluator.gain_threshold(), max_extra_rounds);
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
