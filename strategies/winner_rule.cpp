// SPDX-License-Identifier: GPL-2.0-or-later
// The winner rule.
#include "strategies/winner_rule.hpp"

#include "strategies/evaluator.hpp"
#include "strategies/guard.hpp"

#include <algorithm>
#include <string>

namespace disktune::strategies {

bool significantly_faster(const TrialResult& a, const TrialResult& b, double min_gain) {
  if (a.status != TrialStatus::ok) return false;
  if (b.status != TrialStatus::ok) return true;
  return lower_bound(a) > upper_bound(b) && a.median > b.median * (1.0 + min_gain);
}

TrialResult with_sample_band(TrialResult trial, double band) {
  const bool one_sample = trial.samples.size() == 1 && !trial.latency && trial.ci_low == trial.ci_high;
  if (trial.status != TrialStatus::ok || !one_sample) return trial;
  trial.ci_low = std::max(0.0, trial.median * (1.0 - band));
  trial.ci_high = trial.median * (1.0 + band);
  return trial;
}

std::size_t risky_change_count(const probe::Settings& base, const probe::Settings& config) {
  std::size_t count = 0;
  for (const auto& [id, value] : changes_from(base, config))
    count += probe::setting_info(id).risk == probe::Risk::risky;
  return count;
}

namespace {

bool eligible(const TrialResult& trial, const TrialResult& baseline, double guard_tolerance) {
  return trial.status == TrialStatus::ok && !fails_guard(trial, baseline, guard_tolerance);
}

// The fastest of those that beat the baseline: a higher median whose interval reaches the
// baseline's (one slow sample) is no answer, and must not hide one that is.
const TrialResult* fastest_beating(const TrialResult& baseline, const std::vector<TrialResult>& candidates,
                                   double min_gain, double guard_tolerance) {
  const TrialResult* fastest = nullptr;
  for (const auto& trial : candidates) {
    const bool beats_baseline = eligible(trial, baseline, guard_tolerance) && significantly_faster(trial, baseline, min_gain);
    if (beats_baseline && (!fastest || trial.median > fastest->median)) fastest = &trial;
  }
  return fastest;
}

// The candidates level with the best by preference_key among those tied with `fastest`
// (eligible, not significantly slower than it, beating the baseline): it is one of them.
std::vector<const TrialResult*> first_by_preference(const TrialResult& baseline, const std::vector<TrialResult>& candidates,
                                                    const TrialResult& fastest, const probe::Settings& base,
                                                    double min_gain, double guard_tolerance,
                                                    const probe::Settings& kernel_defaults) {
  std::vector<const TrialResult*> level;
  PreferenceKey best{};
  for (const auto& trial : candidates) {
    if (!eligible(trial, baseline, guard_tolerance) || significantly_faster(fastest, trial, min_gain)) continue;
    if (!significantly_faster(trial, baseline, min_gain)) continue;
    const PreferenceKey key = preference_key(trial.settings, base, kernel_defaults);
    if (level.empty() || key < best) {
      level.clear();
      best = key;
    }
    if (key == best) level.push_back(&trial);
  }
  return level;
}

// The last steps, for candidates level by preference_key: the median only where it is
// separated (one that another is significantly faster than is out; the fastest never is), then
// the settings' fixed order. Neither depends on the order the candidates come in.
const TrialResult* by_separation_then_settings(const std::vector<const TrialResult*>& level, double min_gain) {
  const TrialResult* pick = nullptr;
  for (const TrialResult* trial : level) {
    const bool outrun = std::any_of(level.begin(), level.end(),
                                    [&](const TrialResult* other) { return significantly_faster(*other, *trial, min_gain); });
    if (!outrun && (!pick || trial->settings < pick->settings)) pick = trial;
  }
  return pick;
}

std::string against(const char* rule, std::int64_t winner, std::int64_t other) {
  return std::string(rule) + " (" + std::to_string(winner) + " against " + std::to_string(other) + ")";
}

// "read_ahead_kb=128": the kernel's defaults `winner` holds and `other` does not, which the
// report names so that the tie can be checked against what the kernel states.
std::string defaults_held(const probe::Settings& winner, const probe::Settings& other, const probe::Settings& defaults) {
  probe::Settings held;
  for (const auto& [id, value] : defaults) {
    const auto w = winner.find(id);
    const auto o = other.find(id);
    if (w != winner.end() && w->second == value && (o == other.end() || o->second != value)) held[id] = value;
  }
  return probe::format_settings(held);
}

// "read_ahead_kb 128 before 256": the first setting the fixed order tells `winner` and `other` apart by.
std::string fixed_order_rule(const probe::Settings& winner, const probe::Settings& other) {
  const auto [w, o] = std::mismatch(winner.begin(), winner.end(), other.begin(), other.end());
  if (w == winner.end() || o == other.end() || w->first != o->first) return "the settings' fixed order";
  return "the settings' fixed order (" + std::string(probe::setting_name(w->first)) + " " +
         probe::format_value(w->first, w->second) + " before " + probe::format_value(o->first, o->second) + ")";
}

}  // namespace

std::size_t settings_equal_to(const probe::Settings& reference, const probe::Settings& config) {
  std::size_t count = 0;
  for (const auto& [id, value] : config) {
    const auto it = reference.find(id);
    count += it != reference.end() && it->second == value;
  }
  return count;
}

PreferenceKey preference_key(const probe::Settings& config, const probe::Settings& base,
                             const probe::Settings& kernel_defaults) {
  return {risky_change_count(base, config), changes_from(base, config).size(),
          -static_cast<std::int64_t>(settings_equal_to(base, config)),
          -static_cast<std::int64_t>(settings_equal_to(kernel_defaults, config))};
}

std::optional<TieBreak> tie_break(const TrialResult& baseline, const std::vector<TrialResult>& candidates,
                                  const TrialResult& winner, const probe::Settings& base, double min_gain,
                                  double guard_tolerance, const probe::Settings& kernel_defaults) {
  const TrialResult* fastest = fastest_beating(baseline, candidates, min_gain, guard_tolerance);
  if (!fastest || fastest->settings == winner.settings) return std::nullopt;
  const auto [w_risky, w_changes, w_found, w_default] = preference_key(winner.settings, base, kernel_defaults);
  const auto [f_risky, f_changes, f_found, f_default] = preference_key(fastest->settings, base, kernel_defaults);
  std::string rule;
  if (w_risky != f_risky)
    rule = against("fewer risky changes", static_cast<std::int64_t>(w_risky), static_cast<std::int64_t>(f_risky));
  else if (w_changes != f_changes)
    rule = against("fewer changes", static_cast<std::int64_t>(w_changes), static_cast<std::int64_t>(f_changes));
  else if (w_found != f_found)
    rule = against("more settings as found", -w_found, -f_found);
  else if (w_default != f_default)
    rule = against("more settings at the kernel's default", -w_default, -f_default) +
           ": the kernel's default for this device " + defaults_held(winner.settings, fastest->settings, kernel_defaults);
  else
    rule = fixed_order_rule(winner.settings, fastest->settings);
  return TieBreak{fastest->id, fastest->median, rule};
}

const TrialResult* pick_winner(const TrialResult& baseline, const std::vector<TrialResult>& candidates,
                               const probe::Settings& base, double min_gain, double guard_tolerance,
                               const probe::Settings& kernel_defaults) {
  const TrialResult* fastest = fastest_beating(baseline, candidates, min_gain, guard_tolerance);
  if (!fastest) return nullptr;
  return by_separation_then_settings(
      first_by_preference(baseline, candidates, *fastest, base, min_gain, guard_tolerance, kernel_defaults), min_gain);
}

std::vector<Unseparated> unseparated_from(const std::vector<TrialResult>& candidates, const TrialResult& winner,
                                          double min_gain) {
  std::vector<Unseparated> tied;
  if (winner.status != TrialStatus::ok) return tied;
  for (const auto& trial : candidates)
    if (trial.status == TrialStatus::ok && trial.settings != winner.settings &&
        !significantly_faster(winner, trial, min_gain))
      tied.push_back({trial.id, trial.median});
  return tied;
}

}  // namespace disktune::strategies
