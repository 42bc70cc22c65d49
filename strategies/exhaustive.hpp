// SPDX-License-Identifier: GPL-2.0-or-later
// exhaustive: every legal configuration (after screening single changes).
#pragma once

#include "strategies/strategy.hpp"

namespace disktune::strategies {

/// Tries every configuration of the space (SearchSpace::legal_count() of them) that holds no
/// value quarantined by screening. The reference other strategies are measured against.
class Exhaustive final : public Strategy {
 public:
  [[nodiscard]] std::string_view name() const override;
  [[nodiscard]] std::string_view description() const override;
  void run(const SearchSpace& space, Evaluator& evaluator) override;
  [[nodiscard]] TrialForecast forecast(const SearchSpace& space, const Evaluator& evaluator) const override;
};

}  // namespace disktune::strategies
