// SPDX-License-Identifier: GPL-2.0-or-later
// coordinate-descent: passes over the groups from the incumbent.
#include "strategies/coordinate_descent.hpp"

namespace disktune::strategies {
namespace {

// The fastest choice of group g around `incumbent`; returns true when it moved.
bool improve_group(const SearchSpace& space, Evaluator& evaluator, std::size_t g, const TrialResult*& incumbent) {
  const TrialResult* top = incumbent;
  for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
    const auto config = space.with_choice(incumbent->settings, g, c);
    if (config == incumbent->settings || evaluator.quarantined(config)) continue;
    const TrialResult* trial = evaluator.evaluate(config);
    if (trial && trial->status == TrialStatus::ok && trial->median_mib_s > top->median_mib_s) top = trial;
  }
  if (top == incumbent || !evaluator.clearly_faster(*top, *incumbent)) return false;
  incumbent = top;
  return true;
}

}  // namespace

std::string_view CoordinateDescent::name() const { return "coordinate-descent"; }
std::string_view CoordinateDescent::description() const {
  return "screen, then from the best so far change one setting at a time, repeated until no move helps";
}

void CoordinateDescent::run(const SearchSpace& space, Evaluator& evaluator) {
  screen_single_changes(space, evaluator);
  const TrialResult* incumbent = &evaluator.best();
  bool moved = true;
  while (moved && evaluator.budget_left()) {
    moved = false;
    for (std::size_t g = 0; g < space.groups().size() && evaluator.budget_left(); ++g)
      moved = improve_group(space, evaluator, g, incumbent) || moved;
  }
}

}  // namespace disktune::strategies
