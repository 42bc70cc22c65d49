// SPDX-License-Identifier: GPL-2.0-or-later
// Search progress and its status line (search_progress.hpp).
#include "tuner/search_progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace disktune::tuner {
namespace {

// "45 s", "2 m 05 s", "1 h 02 m".
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

}  // namespace

SearchProgress search_progress(const strategies::Strategy& strategy, const strategies::SearchSpace& space,
                               const strategies::Evaluator& evaluator, double confirmation_s) {
  SearchProgress progress;
  progress.trials = evaluator.trials().size();
  progress.forecast = strategy.forecast(space, evaluator);
  progress.measured_s = evaluator.measured_s();
  progress.best = evaluator.best().median;
  return with_forecast(progress, confirmation_s);
}

SearchProgress with_forecast(SearchProgress progress, double confirmation_s) {
  const double per_trial = progress.trials > 0 ? progress.measured_s / static_cast<double>(progress.trials) : 0.0;
  const auto left = progress.forecast.total > progress.trials ? progress.forecast.total - progress.trials : 0;
  progress.remaining_s = static_cast<double>(left) * per_trial + confirmation_s;
  return progress;
}

std::string status_line(const SearchProgress& progress, const bench::Objective& objective, double elapsed_s) {
  return "trial " + std::to_string(progress.trials) + (progress.forecast.estimated ? " of about " : " of ") +
         std::to_string(progress.forecast.total) + ", " + duration_text(elapsed_s) + ", about " +
         duration_text(progress.remaining_s) + " left, best " + bench::format_figure(objective, progress.best);
}

}  // namespace disktune::tuner
