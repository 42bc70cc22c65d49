// SPDX-License-Identifier: GPL-2.0-or-later
// racing: screening, a pool of promising combinations, then successive halving.
#include "strategies/racing.hpp"

#include <algorithm>

namespace disktune::strategies {
namespace {

constexpr std::size_t kKeepPerGroup = 2;  // screened choices kept besides the baseline's
constexpr std::size_t kEta = 3;           // a rung keeps the fastest 1/kEta

// Choice indices of group g worth combining: the baseline's, and the fastest screened ones.
std::vector<std::size_t> promising_choices(const SearchSpace& space, Evaluator& evaluator, std::size_t g) {
  std::vector<std::pair<const TrialResult*, std::size_t>> ranked;
  for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
    const auto config = space.with_choice(space.baseline(), g, c);
    if (config == space.baseline() || evaluator.quarantined(config)) continue;
    const Evaluation trial = evaluator.evaluate(config);
    if (trial.ended()) break;
    if (trial && trial->status == TrialStatus::ok) ranked.emplace_back(trial.get(), c);
  }
  std::sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.first->median > b.first->median; });
  std::vector<std::size_t> kept;
  if (const auto base = space.choice_of(space.baseline(), g)) kept.push_back(*base);
  for (std::size_t i = 0; i < ranked.size() && i < kKeepPerGroup; ++i) {
    if (i > 0 && evaluator.clearly_faster(*ranked[0].first, *ranked[i].first)) break;
    kept.push_back(ranked[i].second);
  }
  return kept;
}

// Every combination of the kept choices (odometer), the baseline excluded.
std::vector<probe::Settings> pool(const SearchSpace& space, const std::vector<std::vector<std::size_t>>& kept) {
  std::vector<probe::Settings> configs;
  std::vector<std::size_t> at(kept.size(), 0);
  for (;;) {
    probe::Settings config = space.baseline();
    for (std::size_t g = 0; g < kept.size(); ++g)
      if (!kept[g].empty()) config = space.with_choice(config, g, kept[g][at[g]]);
    if (config != space.baseline()) configs.push_back(std::move(config));
    std::size_t g = kept.size();
    while (g > 0) {
      --g;
      if (++at[g] < std::max<std::size_t>(kept[g].size(), 1)) break;
      at[g] = 0;
      if (g == 0) return configs;
    }
    if (kept.empty()) return configs;
  }
}

// One rung: measure every config with `effort`, keep the fastest ceil(n / kEta).
std::vector<probe::Settings> rung(Evaluator& evaluator, const std::vector<probe::Settings>& configs, Effort effort) {
  std::vector<std::pair<double, probe::Settings>> measured;
  for (const auto& config : configs) {
    if (evaluator.quarantined(config)) continue;
    const Evaluation trial = evaluator.evaluate(config, effort);
    if (trial.ended()) return {};
    if (trial && trial->status == TrialStatus::ok) measured.emplace_back(trial->median, config);
  }
  std::sort(measured.begin(), measured.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  const std::size_t keep = (measured.size() + kEta - 1) / kEta;
  std::vector<probe::Settings> survivors;
  for (std::size_t i = 0; i < keep; ++i) survivors.push_back(measured[i].second);
  return survivors;
}

}  // namespace

std::string_view Racing::name() const { return "racing"; }
std::string_view Racing::description() const {
  return "successive halving: screen, combine each setting's best values, measure all briefly, "
         "measure the fastest third fully, repeat";
}

void Racing::run(const SearchSpace& space, Evaluator& evaluator) {
  screen_single_changes(space, evaluator);
  std::vector<std::vector<std::size_t>> kept;
  for (std::size_t g = 0; g < space.groups().size(); ++g) {
    if (evaluator.stop()) return;
    kept.push_back(promising_choices(space, evaluator, g));
  }
  auto survivors = pool(space, kept);
  Effort effort = Effort::quick;
  while (survivors.size() > 1 && evaluator.budget_left()) {
    survivors = rung(evaluator, survivors, effort);
    effort = Effort::full;
  }
  if (survivors.size() == 1 && !evaluator.stop()) evaluator.evaluate(survivors.front(), Effort::full);
}

}  // namespace disktune::strategies
