// SPDX-License-Identifier: GPL-2.0-or-later
// Evaluator: cache, budget, quarantine and the "clearly faster" rule.
#include "strategies/evaluator.hpp"

#include "probe/assert.hpp"

#include <algorithm>

namespace disktune::strategies {

probe::Settings changes_from(const probe::Settings& base, const probe::Settings& config) {
  probe::Settings changes;
  for (const auto& [id, value] : config) {
    const auto it = base.find(id);
    if (it == base.end() || it->second != value) changes[id] = value;
  }
  return changes;
}

Evaluator::Evaluator(const SearchSpace& space, Runner runner, TrialResult baseline,
                     EvaluatorOptions options)
    : space_(space), runner_(std::move(runner)), baseline_(std::move(baseline)), options_(options) {}

bool Evaluator::budget_left() const {
  return !options_.max_trials || trials_.size() < *options_.max_trials;
}

bool Evaluator::quarantined(const probe::Settings& config) const {
  if (failed_configs_.count(config)) return true;
  return std::any_of(quarantine_.begin(), quarantine_.end(), [&](const auto& entry) {
    const auto& choice = entry.first;
    return std::all_of(choice.begin(), choice.end(), [&](const auto& setting) {
      const auto it = config.find(setting.first);
      return it != config.end() && it->second == setting.second;
    });
  });
}

// A failed trial that changed exactly one group from the baseline names its suspect: that
// group choice is never combined again (why DESIGN.md screens risky settings one at a time).
void Evaluator::record_failure(const TrialResult& trial) {
  failed_configs_.insert(trial.settings);
  std::optional<std::size_t> changed_group;
  for (std::size_t g = 0; g < space_.groups().size(); ++g) {
    if (space_.choice_of(trial.settings, g) == space_.choice_of(space_.baseline(), g)) continue;
    if (changed_group) return;  // more than one suspect: only this configuration is out
    changed_group = g;
  }
  if (!changed_group) return;
  const auto choice = space_.choice_of(trial.settings, *changed_group);
  if (!choice) return;
  quarantine_.emplace(space_.groups()[*changed_group].choices[*choice],
                      std::string(to_string(trial.status)) + " in trial " + std::to_string(trial.id));
}

const TrialResult* Evaluator::evaluate(const probe::Settings& config) {
  DT_ASSERT(space_.contains(config));
  if (config == space_.baseline()) return &baseline_;
  if (const auto it = cache_.find(config); it != cache_.end()) return &trials_[it->second];
  if (!budget_left() || quarantined(config)) return nullptr;
  TrialResult trial = runner_(config);
  trial.id = static_cast<int>(trials_.size()) + 1;
  trial.settings = config;
  trials_.push_back(std::move(trial));
  cache_[config] = trials_.size() - 1;
  if (trials_.back().status != TrialStatus::ok) record_failure(trials_.back());
  if (observer_) observer_(trials_.back());
  return &trials_.back();
}

bool Evaluator::clearly_faster(const TrialResult& a, const TrialResult& b) const {
  if (a.status != TrialStatus::ok) return false;
  if (b.status != TrialStatus::ok) return true;
  const double noise = std::max({options_.min_gain, a.spread_pct / 100.0, b.spread_pct / 100.0});
  return a.median_mib_s > b.median_mib_s * (1.0 + noise);
}

const TrialResult& Evaluator::best() const {
  const TrialResult* fastest = &baseline_;
  for (const auto& trial : trials_)
    if (trial.status == TrialStatus::ok && trial.median_mib_s > fastest->median_mib_s) fastest = &trial;
  if (fastest == &baseline_ || !clearly_faster(*fastest, baseline_)) return baseline_;
  // Among the trials tied with the fastest, the one with the fewest changes is the safer pick.
  const TrialResult* pick = fastest;
  auto change_count = [&](const TrialResult& t) { return changes_from(space_.baseline(), t.settings).size(); };
  for (const auto& trial : trials_) {
    if (trial.status != TrialStatus::ok || clearly_faster(*fastest, trial)) continue;
    if (!clearly_faster(trial, baseline_)) continue;
    if (change_count(trial) < change_count(*pick)) pick = &trial;
  }
  return *pick;
}

}  // namespace disktune::strategies
