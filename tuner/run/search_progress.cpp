// SPDX-License-Identifier: GPL-2.0-or-later
// Search progress and its status line (search_progress.hpp).
#include "tuner/run/search_progress.hpp"

#include "strategies/confirmation.hpp"

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

namespace {

// `seconds` of search left, with a budget no more than its room for them: the Evaluator starts a
// trial while the round's reserve still fits, and lets the last one (`per_trial_s`) end.
double within_budget(const SearchProgress& progress, const TimeLeftBasis& basis, double seconds, double per_trial_s) {
  if (!basis.budget_s) return seconds;
  const double room = *basis.budget_s - basis.before_search_s - progress.measured_s - basis.reserve_s;
  return room > 0.0 ? std::min(seconds, room + per_trial_s) : 0.0;
}

// The measurement seconds of the trials left of a search of `total` trials: `predicted` (the
// strategy's forecast of them) when there is one, else each at `per_trial_s`.
double seconds_left(const SearchProgress& progress, std::size_t total, std::optional<double> predicted,
                    double per_trial_s) {
  const auto left = total > progress.trials ? total - progress.trials : 0;
  return predicted.value_or(static_cast<double>(left) * per_trial_s);
}

// The round's rounds: as many as the budget leaves after the search (confirm_rounds_for's
// rule), at least min_rounds; without a budget all of them.
int round_rounds(const TimeLeftBasis& basis, double left_s) {
  if (!basis.budget_s || basis.round_budget_s <= 0.0) return basis.rounds;
  const int fit = static_cast<int>(std::min(left_s / basis.round_budget_s, static_cast<double>(basis.rounds)));
  return std::clamp(fit, basis.min_rounds, basis.rounds);
}

// The extra passes of `rounds` rounds the budget leaves room for after the first, at most
// strategies::kMaxExtraConfirmRounds (confirm_round's extra_rounds_within: each pass at the
// budget's per-round cost).
int extra_passes_within(const TimeLeftBasis& basis, double left_s, int rounds) {
  const double per_pass = rounds * basis.round_budget_s;
  if (!basis.budget_s || per_pass <= 0.0) return strategies::kMaxExtraConfirmRounds;
  return std::clamp(static_cast<int>((left_s - per_pass) / per_pass), 0, strategies::kMaxExtraConfirmRounds);
}

}  // namespace

SearchProgress search_progress(const strategies::Strategy& strategy, const strategies::SearchSpace& space,
                               const strategies::Evaluator& evaluator, const TimeLeftBasis& basis,
                               std::optional<std::size_t> max_trials) {
  SearchProgress progress;
  progress.trials = evaluator.trials().size();
  progress.forecast = strategy.forecast(space, evaluator);
  if (max_trials) {  // --max-trials ends the search first; the count is exact once the fewest reaches it too
    auto& forecast = progress.forecast;
    const std::size_t fewest = std::min(forecast.fewest.value_or(forecast.total), *max_trials);
    if (forecast.seconds) {  // each count's seconds for the trials the cap leaves of it
      const auto cut = [&](double s, std::size_t count) {
        const auto left = count > progress.trials ? count - progress.trials : 0;
        const auto kept = *max_trials > progress.trials ? std::min(count, *max_trials) - progress.trials : 0;
        return left > 0 ? s * static_cast<double>(kept) / static_cast<double>(left) : s;
      };
      forecast.seconds->expected = cut(forecast.seconds->expected, forecast.total);
      forecast.seconds->fewest = cut(forecast.seconds->fewest, forecast.fewest.value_or(forecast.total));
      forecast.seconds->most = cut(forecast.seconds->most, forecast.most.value_or(forecast.total));
    }
    if (forecast.total > *max_trials) forecast.total = *max_trials;
    forecast.most = std::min(forecast.most.value_or(forecast.total), *max_trials);
    forecast.fewest = fewest;
    // Exact only when even the fewest reaches the cap: a rehearsed count that merely equals its
    // own fewest ("trial 53 of 54" under --max-trials 100) is still a prediction.
    if (fewest == *max_trials && forecast.total == *max_trials) forecast.estimated = false;
  }
  const auto finalists = strategies::finalists(evaluator, basis.max_finalists);
  progress.finalists = finalists.size();
  std::vector<strategies::TrialResult> contenders{evaluator.baseline()};
  contenders.insert(contenders.end(), finalists.begin(), finalists.end());
  progress.far_ahead = !finalists.empty() && strategies::far_ahead(contenders, evaluator.gain_threshold());
  progress.measured_s = evaluator.measured_s();
  progress.best = evaluator.best().median;
  return with_time_left(progress, basis);
}

SearchProgress with_time_left(SearchProgress progress, const TimeLeftBasis& basis) {
  progress.before_search_s = basis.before_search_s;
  const double per_trial = progress.trials > 0 ? progress.measured_s / static_cast<double>(progress.trials) : 0.0;
  const auto& forecast = progress.forecast;
  const auto& seconds = forecast.seconds;
  // The search's seconds left for a count of `total` trials, its predicted `part` when the forecast has one.
  const auto search = [&](std::size_t total, double strategies::ForecastSeconds::*part) {
    const auto predicted = seconds ? std::optional<double>((*seconds).*part) : std::nullopt;
    return within_budget(progress, basis, seconds_left(progress, total, predicted, per_trial), per_trial);
  };
  progress.search_left_s = search(forecast.total, &strategies::ForecastSeconds::expected);
  progress.search_least_s = search(std::min(forecast.fewest.value_or(forecast.total), forecast.total),
                                   &strategies::ForecastSeconds::fewest);
  progress.search_most_s = search(std::max(forecast.most.value_or(forecast.total), forecast.total),
                                  &strategies::ForecastSeconds::most);
  const double after_search =
      basis.budget_s ? *basis.budget_s - basis.before_search_s - progress.measured_s - progress.search_left_s : 0.0;
  const int rounds = round_rounds(basis, after_search);
  // The baseline and the finalists so far; the trials left may add finalists up to the most.
  // No finalist, no round (the baseline stands): none is expected until a trial makes one.
  const auto most_trials = std::max(forecast.most.value_or(forecast.total), forecast.total);
  const auto trials_left = most_trials > progress.trials ? most_trials - progress.trials : 0;
  const auto finalists = std::min(progress.finalists, basis.max_finalists);
  const auto most = std::min(basis.max_finalists, finalists + trials_left);
  const auto round_of = [&](std::size_t count, int of) {
    return count == 0 ? 0.0 : static_cast<double>((1 + count) * of) * basis.unit_s;
  };
  // A finalist far ahead ends the round after its first call: expected then at its fewest rounds.
  const double pass = round_of(finalists, progress.far_ahead ? std::min(rounds, basis.min_rounds) : rounds);
  const double pass_most = round_of(most, rounds) * basis.sample_slack;
  const int extra_passes = extra_passes_within(basis, after_search, rounds);
  progress.remaining_s = progress.search_left_s + pass;
  // A contender far ahead ends the round after its fewest rounds (the round's first call).
  progress.remaining_min_s = progress.search_least_s + round_of(finalists, std::min(rounds, basis.min_rounds));
  progress.remaining_max_s = progress.search_most_s + pass_most * (1 + extra_passes);
  if (basis.budget_s) {  // the search stops while the round's minimum still fits; the round fits the rest
    const double minimum = finalists == 0 ? 0.0 : static_cast<double>((1 + finalists) * basis.min_rounds) * basis.unit_s;
    const double cap = std::max(*basis.budget_s - basis.before_search_s - progress.measured_s, minimum);
    progress.remaining_s = std::min(progress.remaining_s, cap);
    progress.remaining_min_s = std::min(progress.remaining_min_s, cap);
    // While the search runs, what it leaves the round is not known: the upper end gives the
    // round every round and its extra passes, within the budget's remainder (that remainder
    // alone read "to 277 h 35 m" under a budget the run never neared).
    const double whole_round = round_of(most, basis.rounds) * basis.sample_slack * (1 + strategies::kMaxExtraConfirmRounds);
    progress.remaining_max_s = std::min(
        progress.search_left_s > 0.0 ? progress.search_most_s + whole_round : progress.remaining_max_s, cap);
  }
  return progress;
}

std::string status_line(const SearchProgress& progress, const bench::Objective& objective, double elapsed_s,
                        bool simulated) {
  std::string elapsed, left, least, most;
  if (simulated) {
    elapsed = duration_text(progress.before_search_s + progress.measured_s) + " simulated";
    left = duration_text(progress.remaining_s);
    least = duration_text(progress.remaining_min_s);
    most = duration_text(progress.remaining_max_s);
  } else {
    // The search's wall seconds per measured second so far (never below 1), for its trials left
    // and the round's units alike: each unit is a trial of its own, a child that sets, reads
    // back and flushes (an adversary's 2-finalist round took 29 s where its measured seconds
    // left the upper end at 28).
    const double scale =
        progress.measured_s > 0.0 ? std::max(1.0, progress.search_wall_s / progress.measured_s) : 1.0;
    const auto wall = [&](double total_s) { return total_s * scale; };
    elapsed = duration_text(elapsed_s);
    left = duration_text(wall(progress.remaining_s));
    least = duration_text(wall(progress.remaining_min_s));
    most = duration_text(wall(progress.remaining_max_s));
  }
  const std::string range = least != left || most != left ? " (" + least + " to " + most + ")" : "";
  return "trial " + std::to_string(progress.trials) + (progress.forecast.estimated ? " of about " : " of ") +
         std::to_string(progress.forecast.total) + ", " + elapsed + ", about " + left + (simulated ? " simulated" : "") +
         " left" + range + ", answer so far " + bench::format_figure(objective, progress.best);
}

}  // namespace disktune::tuner
