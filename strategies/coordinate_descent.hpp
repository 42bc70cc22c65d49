// SPDX-License-Identifier: GPL-2.0-or-later
// coordinate-descent: one setting at a time from the incumbent, until no move helps; then the small gains together.
#pragma once
#include "strategies/strategy.hpp"

namespace disktune::strategies {

/// After screening, start from the screening's winner; for each group in turn try every
/// choice with the other groups held at the incumbent, and move to the fastest if it is
/// significantly faster than the incumbent; repeat passes until a pass makes no move or
/// the budget is spent. When a pass makes no move, the groups whose fastest choice beat the
/// incumbent's median without being significant are changed together in one more trial: if
/// that combination is significantly faster, it becomes the incumbent and the passes resume
/// (small gains of several settings add up; each alone is within the noise).
class CoordinateDescent final : public Strategy {
 public:
  [[nodiscard]] std::string_view name() const override;
  [[nodiscard]] std::string_view description() const override;
  void run(const SearchSpace& space, Evaluator& evaluator) override;
  [[nodiscard]] TrialForecast forecast(const SearchSpace& space, const Evaluator& evaluator) const override;
};

}  // namespace disktune::strategies
