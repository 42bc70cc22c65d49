// SPDX-License-Identifier: GPL-2.0-or-later
// random: a budgeted uniform sample of the space, the baseline for comparing strategies.
#pragma once
#include "strategies/strategy.hpp"

#include <cstddef>

namespace disktune::strategies {

/// After screening, uniformly random legal configurations without a quarantined value
/// (fixed seed, so runs repeat), until `sample_size(space)` trials in all or the budget.
class RandomSearch final : public Strategy {
 public:
  [[nodiscard]] std::string_view name() const override;
  [[nodiscard]] std::string_view description() const override;
  void run(const SearchSpace& space, Evaluator& evaluator) override;
  [[nodiscard]] TrialForecast forecast(const SearchSpace& space, const Evaluator& evaluator) const override;
  /// Trials it aims for: 5 % of the legal configurations, at least 20 (at most all of them).
  static std::size_t sample_size(const SearchSpace& space);
};

}  // namespace disktune::strategies
