// SPDX-License-Identifier: GPL-2.0-or-later
// racing: successive halving over the combinations of each setting's best screened values.
#pragma once
#include "strategies/strategy.hpp"

namespace disktune::strategies {

/// Successive halving (Jamieson & Talwalkar 2016, "racing" in irace's sense): after
/// screening, each group keeps its baseline choice and its two fastest screened choices
/// (the second only when it is not significantly slower than the first); every combination
/// of those is measured quickly (the minimum samples), the fastest third survive and are
/// measured fully (adaptive samples), and so on until one is left or the budget is spent.
class Racing final : public Strategy {
 public:
  [[nodiscard]] std::string_view name() const override;
  [[nodiscard]] std::string_view description() const override;
  void run(const SearchSpace& space, Evaluator& evaluator) override;
};

}  // namespace disktune::strategies
