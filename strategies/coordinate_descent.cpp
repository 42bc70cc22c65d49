// SPDX-License-Identifier: GPL-2.0-or-later
// coordinate-descent: passes over the groups from the incumbent, then the within-noise moves combined.
#include "strategies/coordinate_descent.hpp"

#include "strategies/forecast.hpp"

namespace disktune::strategies {
namespace {

// The fastest choice of group g around `incumbent` by median (the incumbent when none is faster).
const TrialResult* fastest_move(const SearchSpace& space, Evaluator& evaluator, std::size_t g,
                                const TrialResult* incumbent) {
  const TrialResult* top = incumbent;
  for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
    const auto config = space.with_choice(incumbent->settings, g, c);
    if (config == incumbent->settings || evaluator.quarantined(config)) continue;
    const Evaluation trial = evaluator.evaluate(config);
    if (trial.ended()) return top;
    if (trial && trial->status == TrialStatus::ok && trial->median > top->median) top = trial.get();
  }
  return top;
}

// One pass over the groups, moving to a group's fastest choice when it is significantly
// faster than the incumbent. Returns true when it moved; `faster` gets the configuration
// with every group's fastest choice when none was significant (the within-noise moves).
bool pass(const SearchSpace& space, Evaluator& evaluator, const TrialResult*& incumbent, probe::Settings& faster) {
  bool moved = false;
  faster = incumbent->settings;
  for (std::size_t g = 0; g < space.groups().size() && evaluator.budget_left(); ++g) {
    const TrialResult* top = fastest_move(space, evaluator, g, incumbent);
    if (top == incumbent) continue;
    if (evaluator.clearly_faster(*top, *incumbent)) {
      incumbent = top;
      moved = true;
    } else if (const auto choice = space.choice_of(top->settings, g)) {
      faster = space.with_choice(faster, g, *choice);
    }
  }
  return moved;
}

}  // namespace

std::string_view CoordinateDescent::name() const { return "coordinate-descent"; }
std::string_view CoordinateDescent::description() const {
  return "screen, then from the best so far change one setting at a time, repeated until no move helps; "
         "then try the small gains of several settings together";
}

void CoordinateDescent::run(const SearchSpace& space, Evaluator& evaluator) {
  screen_single_changes(space, evaluator);
  if (evaluator.stop()) return;
  const TrialResult* incumbent = &evaluator.best();
  probe::Settings faster;
  while (evaluator.budget_left()) {
    if (pass(space, evaluator, incumbent, faster)) continue;
    // No single move was significant: gains each within the noise may add up to one that is.
    if (faster == incumbent->settings || evaluator.quarantined(faster)) return;
    const Evaluation combined = evaluator.evaluate(faster);
    if (!combined || !evaluator.clearly_faster(*combined, *incumbent)) return;
    incumbent = combined.get();
  }
}

TrialForecast CoordinateDescent::forecast(const SearchSpace& space, const Evaluator& evaluator) const {
  return coordinate_descent_forecast(space, evaluator);
}

}  // namespace disktune::strategies
