// SPDX-License-Identifier: GPL-2.0-or-later
// Strategy: searches a SearchSpace through an Evaluator (Kernel Tuner's strategy shape).
#pragma once

#include "strategies/evaluator.hpp"
#include "strategies/search_space.hpp"

#include <string_view>

namespace disktune::strategies {

/// A search strategy. It sees only the space and the evaluator, never a device; the
/// evaluator records every trial, and Evaluator::best() names the winner afterwards.
class Strategy {
 public:
  virtual ~Strategy() = default;
  /// Registry name ("exhaustive", "one-at-a-time").
  [[nodiscard]] virtual std::string_view name() const = 0;
  /// One line for --help.
  [[nodiscard]] virtual std::string_view description() const = 0;
  /// Run the search until done, the evaluator's budget is spent or it reports a stop (an
  /// Evaluation that ended(): return then; Evaluator::stop() says why). Never throws a stop.
  virtual void run(const SearchSpace& space, Evaluator& evaluator) = 0;
};

/// Screening, the first phase of every strategy: each group's every choice alone against the
/// baseline, so that a hang or a fault always has one suspect (DESIGN.md). Choices whose
/// single-change trial fails are quarantined by the evaluator and never combined.
void screen_single_changes(const SearchSpace& space, Evaluator& evaluator);

}  // namespace disktune::strategies
