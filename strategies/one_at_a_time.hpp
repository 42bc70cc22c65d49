// SPDX-License-Identifier: GPL-2.0-or-later
// one-at-a-time: the seed's manual method, automated.
#pragma once

#include "strategies/strategy.hpp"

namespace disktune::strategies {

/// The hdparm walkthrough's method: each setting alone against the baseline (screening),
/// then the best value of each combined and confirmed; if the combination is not ok, back
/// off one setting at a time (dropping each improving change in turn) and keep the best.
class OneAtATime final : public Strategy {
 public:
  [[nodiscard]] std::string_view name() const override;
  [[nodiscard]] std::string_view description() const override;
  void run(const SearchSpace& space, Evaluator& evaluator) override;
  [[nodiscard]] TrialForecast forecast(const SearchSpace& space, const Evaluator& evaluator) const override;
};

}  // namespace disktune::strategies
