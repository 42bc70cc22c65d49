// SPDX-License-Identifier: GPL-2.0-or-later
// Search progress and its status line (search_progress.hpp).
#include "tuner/run/search_progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace disktune::tuner {

std::string duration_text(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  char text[32];
  if (s < 60)
    std::snprintf(text, sizeof text, "%lld s", s);
  else if (s < 3600)
    std::snprintf(text, sizeof text, "%lld m %02lld s", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%lld h %02lld m", s / 3600, (s / 60) % 60);
  return text;
}

SearchProgress search_progress(const strategies::Strategy& strategy, const strategies::SearchSpace& space,
                               const strategies::Evaluator& evaluator, const TimeLeftBasis& basis,
                               std::optional<std::size_t> max_trials) {
  SearchProgress progress;
  progress.trials = evaluator.trials().size();
  progress.forecast = strategy.forecast(space, evaluator);
  if (max_trials && progress.forecast.total > *max_trials) progress.forecast = {*max_trials, false};
  progress.measured_s = evaluator.measured_s();
  progress.best = evaluator.best().median;
  return with_time_left(progress, basis);
}

SearchProgress with_time_left(SearchProgress progress, const TimeLeftBasis& basis) {
  progress.before_search_s = basis.before_search_s;
  const double per_trial = progress.trials > 0 ? progress.measured_s / static_cast<double>(progress.trials) : 0.0;
  const auto left = progress.forecast.total > progress.trials ? progress.forecast.total - progress.trials : 0;
  const double search_left = static_cast<double>(left) * per_trial;
  progress.remaining_s = search_left + basis.confirm_pass_s;
  progress.remaining_max_s = search_left + basis.confirm_pass_s * (1 + basis.extra_passes);
  if (basis.budget_s) {  // the search stops while the round's minimum still fits; the round fits the rest
    const double cap = std::max(*basis.budget_s - basis.before_search_s - progress.measured_s, basis.confirm_min_s);
    progress.remaining_s = std::min(progress.remaining_s, cap);
    progress.remaining_max_s = std::min(progress.remaining_max_s, cap);
  }
  return progress;
}

std::string status_line(const SearchProgress& progress, const bench::Objective& objective, double elapsed_s,
                        bool simulated) {
  std::string elapsed, left, most;
  if (simulated) {
    elapsed = duration_text(progress.before_search_s + progress.measured_s) + " simulated";
    left = duration_text(progress.remaining_s);
    most = duration_text(progress.remaining_max_s);
  } else {
    // Wall seconds per measured second so far, the baseline's included: never below 1.
    const double measured = progress.before_search_s + progress.measured_s;
    const double scale = measured > 0.0 ? std::max(1.0, elapsed_s / measured) : 1.0;
    elapsed = duration_text(elapsed_s);
    left = duration_text(progress.remaining_s * scale);
    most = duration_text(progress.remaining_max_s * scale);
  }
  return "trial " + std::to_string(progress.trials) + (progress.forecast.estimated ? " of about " : " of ") +
         std::to_string(progress.forecast.total) + ", " + elapsed + ", about " + left + (most != left ? " to " + most : "") +
         (simulated ? " simulated" : "") + " left, best " + bench::format_figure(objective, progress.best);
}

}  // namespace disktune::tuner
