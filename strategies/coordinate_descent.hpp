// SPDX-License-Identifier: GPL-2.0-or-later
// coordinate-descent: one setting at a time from the incumbent, until no move helps.
#pragma once
#include "strategies/strategy.hpp"

namespace disktune::strategies {

/// After screening, start from the screening's winner; for each group in turn try every
/// choice with the other groups held at the incumbent, and move to the fastest if it is
/// significantly faster than the incumbent; repeat passes until a pass makes no move or
/// the budget is spent.
class CoordinateDescent final : public Strategy {
 public:
  [[nodiscard]] std::string_view name() const override;
  [[nodiscard]] std::string_view description() const override;
  void run(const SearchSpace& space, Evaluator& evaluator) override;
};

}  // namespace disktune::strategies
