// SPDX-License-Identifier: GPL-2.0-or-later
// coordinate-descent: coarse screening, then one acting setting at a time from the incumbent; then the small gains together.
#pragma once
#include "strategies/strategy.hpp"

namespace disktune::strategies {

/// Screening by screen_coarse_first (every setting tried once before any is tried twice; then
/// every value of the settings that act, only the leading one's once a change beats the
/// baseline: strategies/coarse_screening.hpp). Then, from the
/// screening's winner, for each acting group in turn try every choice with the other groups
/// held at the incumbent (but a choice the hopeless stop ended around an earlier incumbent,
/// strategies::stopped_hopeless), and move to the fastest if it is significantly faster than the
/// incumbent; repeat passes until a pass makes no move or the budget is spent. A group whose
/// values all tied in screening is not tried again around every new incumbent (most knobs
/// tie, and every move would re-measure them), only at its coarse choices once the passes
/// converge away from the baseline (a knob may act only there); where it acts, it joins. When a pass makes no move, the groups whose fastest
/// choice beat the incumbent's median without being significant (in the pass, or for a tied
/// group in screening) are changed together in one more trial: if that combination is
/// significantly faster, it becomes the incumbent and the passes resume (small gains of
/// several settings add up; each alone is within the noise). With no acting group the search
/// ends after the screening and that one trial.
class CoordinateDescent final : public Strategy {
 public:
  [[nodiscard]] std::string_view name() const override;
  [[nodiscard]] std::string_view description() const override;
  void run(const SearchSpace& space, Evaluator& evaluator) override;
  [[nodiscard]] TrialForecast forecast(const SearchSpace& space, const Evaluator& evaluator) const override;
};

}  // namespace disktune::strategies
