// SPDX-License-Identifier: GPL-2.0-or-later
// one-at-a-time: screen every single change, combine each group's best, back off on failure.
#include "strategies/one_at_a_time.hpp"

#include "strategies/forecast.hpp"

#include <algorithm>

namespace disktune::strategies {
namespace {

// Each group's best screened choice that is clearly faster than the baseline.
std::vector<std::pair<std::size_t, std::size_t>> improving_choices(const SearchSpace& space,
                                                                   Evaluator& evaluator) {
  std::vector<std::pair<std::size_t, std::size_t>> best;
  for (std::size_t g = 0; g < space.groups().size(); ++g) {
    const TrialResult* top = &evaluator.baseline();
    std::optional<std::size_t> top_choice;
    for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
      const auto config = space.with_choice(space.baseline(), g, c);
      if (evaluator.quarantined(config)) continue;
      const Evaluation trial = evaluator.evaluate(config);
      if (trial.ended()) return best;
      if (trial && trial->status == TrialStatus::ok && trial->median > top->median) {
        top = trial.get();
        top_choice = c;
      }
    }
    if (top_choice && evaluator.clearly_faster(*top, evaluator.baseline())) best.emplace_back(g, *top_choice);
  }
  return best;
}

probe::Settings combine(const SearchSpace& space,
                        const std::vector<std::pair<std::size_t, std::size_t>>& choices,
                        std::optional<std::size_t> skip) {
  probe::Settings config = space.baseline();
  for (std::size_t i = 0; i < choices.size(); ++i)
    if (i != skip) config = space.with_choice(config, choices[i].first, choices[i].second);
  return config;
}

}  // namespace

std::string_view OneAtATime::name() const { return "one-at-a-time"; }

std::string_view OneAtATime::description() const {
  return "the seed's method: each setting alone, then the best of each combined and confirmed";
}

void OneAtATime::run(const SearchSpace& space, Evaluator& evaluator) {
  screen_single_changes(space, evaluator);
  const auto best = improving_choices(space, evaluator);
  if (best.size() < 2 || !evaluator.budget_left()) return;  // one improving change was already measured alone
  const Evaluation combined = evaluator.evaluate(combine(space, best, std::nullopt));
  if (combined.ended() || (combined && combined->status == TrialStatus::ok)) return;
  // Back off one setting at a time, as the walkthrough says to do after a hang.
  for (std::size_t skip = 0; skip < best.size() && evaluator.budget_left(); ++skip)
    if (evaluator.evaluate(combine(space, best, skip)).ended()) return;
}

// The screening, then one combination (and a back-off after a failed one, not forecast).
TrialForecast OneAtATime::forecast(const SearchSpace& space, const Evaluator& evaluator) const {
  return {std::max(screening_trials(space), evaluator.trials().size()) + 1, true, std::nullopt, std::nullopt, std::nullopt};
}

}  // namespace disktune::strategies
