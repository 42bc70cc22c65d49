// SPDX-License-Identifier: GPL-2.0-or-later
// Finalists, confirmation round, winner.
#include "tuner/run/decision.hpp"

#include "strategies/winner_rule.hpp"

namespace disktune::tuner {

std::variant<Decision, strategies::Stop> decide(const strategies::Evaluator& evaluator, const RoundRunner& round_runner,
                               std::size_t finalist_count, int max_extra_rounds, bool in_two_calls) {
  Decision decision{evaluator.baseline(), std::nullopt, "", std::nullopt};
  const auto finals = strategies::finalists(evaluator, finalist_count);
  if (finals.empty()) return decision;
  std::optional<strategies::Stop> failure;
  auto round = strategies::confirm(
      evaluator.baseline().settings, finals,
      [&](const std::vector<probe::Settings>& contenders, int index) {
        auto ran = round_runner(contenders, index);
        if (auto* stop = std::get_if<strategies::Stop>(&ran)) failure = std::move(*stop);
        else if (auto& round = std::get<strategies::Round>(ran); round.skipped.empty()) return std::move(round.results);
        else if (index == 0) decision.round_skipped = round.skipped;
        // A failed or skipped round: results that are not ok (an extra round is then dropped).
        std::vector<strategies::TrialResult> none(contenders.size());
        for (auto& r : none) r.status = strategies::TrialStatus::error;
        return none;
      },
      evaluator.min_gain(), max_extra_rounds, in_two_calls, evaluator.guard_tolerance(), evaluator.kernel_defaults(),
      evaluator.noise_floor());
  if (failure) return *failure;
  // A round whose baseline did not measure (unstable: a setting changed behind its back; an
  // error) confirms nothing: every finalist would beat a missing figure (one was "far ahead",
  // confirmed, with the baseline unstable in the round). The search's answer stands, unconfirmed.
  if (const auto& first = round.results.front(); decision.round_skipped.empty() && first.status != strategies::TrialStatus::ok) {
    decision.round_skipped = "the baseline did not measure in the confirmation round (" +
                             std::string(strategies::to_string(first.status)) + (first.detail.empty() ? "" : ": " + first.detail) +
                             "): nothing can be confirmed against it";
    for (const auto& result : round.results) decision.dropped_round_s += result.measured_s;
  }
  const auto& base = evaluator.baseline().settings;
  if (!decision.round_skipped.empty()) {
    // The search's own answer, unconfirmed: best() (the baseline when nothing beat it
    // significantly), never a finalist that only the round was to decide (a near tie).
    decision.winner = evaluator.best();
    if (decision.winner.settings == base) return decision;
    const std::vector<strategies::TrialResult> trials(evaluator.trials().begin(), evaluator.trials().end());
    decision.tie = strategies::tie_break(evaluator.baseline(), trials, decision.winner, base,
                                         evaluator.gain_threshold(), evaluator.guard_tolerance(),
                                         evaluator.kernel_defaults());
    return decision;
  }
  decision.winner = round.results[round.winner];
  if (round.winner == 0) decision.winner = evaluator.baseline();
  const std::vector<strategies::TrialResult> rivals(round.results.begin() + 1, round.results.end());
  if (round.winner != 0) {
    decision.tie = strategies::tie_break(round.results[0], rivals, decision.winner, base, round.gain_threshold,
                                         evaluator.guard_tolerance(), evaluator.kernel_defaults());
    decision.unseparated = strategies::unseparated_from(rivals, decision.winner, round.gain_threshold);
  }
  decision.confirmation = std::move(round);
  return decision;
}

}  // namespace disktune::tuner
