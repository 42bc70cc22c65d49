// SPDX-License-Identifier: GPL-2.0-or-later
// Evaluator: cache, budget, quarantine, the one path of a trial, and the "clearly faster" rule.
#include "strategies/evaluator.hpp"

#include "strategies/confirmation_units.hpp"

#include "probe/core/assert.hpp"
#include "strategies/guard.hpp"
#include "strategies/winner_rule.hpp"

#include <algorithm>

namespace disktune::strategies {

// How many times one sample's noise a first sample must fall short of the minimum gain for
// sampling to stop (Evaluator::gain_bar): a configuration that much faster reads below it
// with a chance of 3e-5 where the noise is normal.
constexpr double kNoGainSigmas = 4.0;

probe::Settings changes_from(const probe::Settings& base, const probe::Settings& config) {
  probe::Settings changes;
  for (const auto& [id, value] : config) {
    const auto it = base.find(id);
    if (it == base.end() || it->second != value) changes[id] = value;
  }
  return changes;
}

Evaluator::Evaluator(const SearchSpace& space, TrialExecutor& executor, TrialStore& store, TrialResult baseline,
                     EvaluatorOptions options)
    : space_(space), executor_(executor), store_(store), history_(store.history()), baseline_(std::move(baseline)),
      options_(options) {
  baseline_.settings = space_.baseline();
  if (baseline_.status == TrialStatus::ok) incumbent_low_ = lower_bound(baseline_);
}

Evaluator::Evaluator(const SearchSpace& space, Runner runner, TrialResult baseline, EvaluatorOptions options)
    : Evaluator(space,
                RequestRunner([runner = std::move(runner)](const probe::Settings& config, const TrialRequest&) {
                  return runner(config);
                }),
                std::move(baseline), options) {}

Evaluator::Evaluator(const SearchSpace& space, RequestRunner runner, TrialResult baseline, EvaluatorOptions options)
    : own_executor_(std::make_unique<FunctionExecutor>(std::move(runner))),
      own_store_(std::make_unique<MemoryTrialStore>()),
      space_(space),
      executor_(*own_executor_),
      store_(*own_store_),
      baseline_(std::move(baseline)),
      options_(options) {
  baseline_.settings = space_.baseline();
  if (baseline_.status == TrialStatus::ok) incumbent_low_ = lower_bound(baseline_);
}

double Evaluator::gain_threshold() const { return std::max(options_.min_gain, options_.noise_floor); }

double Evaluator::sample_noise() const { return std::max(options_.noise_floor, baseline_.spread_pct / 100.0); }

std::optional<double> Evaluator::gain_bar() const {
  if (incumbent_low_ <= 0.0) return std::nullopt;
  // A sample kNoGainSigmas samples' noise below the minimum gain over the incumbent's lower
  // bound is not from a configuration that much faster.
  const double bar = incumbent_low_ * (1.0 + options_.min_gain) * (1.0 - kNoGainSigmas * sample_noise());
  return bar > 0.0 ? std::optional(bar) : std::nullopt;
}

bool Evaluator::budget_left() const {
  if (stop_) return false;
  const bool trials_left = !options_.max_trials || trials_.size() < *options_.max_trials;
  const bool time_left = !options_.time_budget_s ||
                         options_.spent_before_s + measured_s_ + options_.reserve_s < *options_.time_budget_s;
  return trials_left && time_left;
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
// group choice is never combined again (why docs/architecture.md screens risky settings one at a time).
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
  const std::string why = std::string(to_string(trial.status)) + " in trial " + std::to_string(trial.id);
  const probe::Settings& suspect = space_.groups()[*changed_group].choices[*choice];
  quarantine_.emplace(suspect, why);
  // One setting of a coupled group changed (DMA on at the current mode): that value alone is
  // the suspect, so no pair holding it is tried again.
  const probe::Settings changed = changes_from(space_.baseline(), suspect);
  if (changed.size() == 1 && suspect.size() > 1) quarantine_.emplace(changed, why);
}

Evaluation Evaluator::evaluate(const probe::Settings& config, Effort effort) {
  DT_ASSERT(space_.contains(config));
  if (config == space_.baseline()) return &baseline_;
  const auto cached = cache_.find(config);
  if (cached != cache_.end() && !(effort == Effort::full && trials_[cached->second].quick))
    return &trials_[cached->second];
  if (stop_) return NotRun::stopped;
  if (!budget_left()) return NotRun::budget_spent;
  if (quarantined(config)) return NotRun::quarantined;
  TrialRequest request;
  request.quick = effort == Effort::quick;
  request.all_samples = options_.all_samples;
  // When the noise between trials exceeds the smallest gain (more than one trial's interval
  // shows), a candidate stops as clearly slower only below the incumbent's bound less that noise.
  const double margin = options_.noise_floor > options_.min_gain ? 1.0 - std::clamp(options_.noise_floor, 0.0, 0.5) : 1.0;
  if (incumbent_low_ > 0.0) request.incumbent_low = incumbent_low_ * margin;
  // A first sample below the gain bar ends the trial: its one value cannot pass the winner
  // rule's median test against the incumbent of its time (the bar lies below the minimum gain
  // over that incumbent's lower bound), so it is never an answer.
  request.gain_bar = gain_bar();
  const bool stored = history_.results.count({config, request.quick}) > 0 || from_history(config, request.quick);
  auto trial = obtain(config, request);
  if (!trial) return NotRun::stopped;
  return &add(std::move(*trial), stored);
}

Rounded Evaluator::confirm(const std::vector<probe::Settings>& contenders, int round, int rounds,
                           const ConfirmHooks& hooks) {
  return store_.confirm_round(contenders, round, [&](const std::vector<probe::Settings>& measured) -> Confirmed {
    if (hooks.before_measure) hooks.before_measure(measured);
    const UnitBegin begin = [&](int pass, std::size_t unit) { return store_.begin_unit(measured, round, pass, unit); };
    auto confirmed = confirm_units(executor_, measured, rounds, hooks.progress, begin);
    // A round a signal cut short is no result (its units failed as "stopped"): kept, a resume
    // took it from the journal and answered "keep the baseline" over an 8x winner.
    if (auto stop = executor_.pending_stop(); stop && std::holds_alternative<std::vector<TrialResult>>(confirmed))
      return std::move(*stop);
    return confirmed;
  });
}

std::optional<TrialResult> Evaluator::halt(Stop stop) {
  stop_ = std::move(stop);
  return std::nullopt;
}

// A verdict the store's history holds (a crashed attempt, a value quarantined by a set-aside
// journal): the trial's result without applying anything.
const TrialResult* Evaluator::measured(const probe::Settings& config) const {
  if (config == baseline_.settings) return &baseline_;
  const auto cached = cache_.find(config);
  return cached == cache_.end() ? nullptr : &trials_[cached->second];
}

bool Evaluator::known(const probe::Settings& config) const {
  return config == baseline_.settings || cache_.count(config) > 0 || history_.results.count({config, false}) > 0 ||
         from_history(config, false).has_value();
}

std::optional<TrialResult> Evaluator::from_history(const probe::Settings& config, bool quick) const {
  if (const auto kept = history_.quarantined.find(config); kept != history_.quarantined.end()) return kept->second;
  if (const auto crashed = history_.crashed.find({config, quick}); crashed != history_.crashed.end())
    return crashed->second;
  return std::nullopt;
}

// The one path of a new trial: stop check, a result from the resumed run, a verdict, or the
// executor between a durable intent record and the result record. nullopt: stopped.
std::optional<TrialResult> Evaluator::obtain(const probe::Settings& config, const TrialRequest& request) {
  if (auto stop = executor_.pending_stop()) return halt(std::move(*stop));
  if (const auto done = history_.results.find({config, request.quick}); done != history_.results.end())
    return done->second;
  std::optional<TrialResult> trial = from_history(config, request.quick);
  if (!trial) {
    if (auto failed = store_.begin(config, request.quick)) return halt(std::move(*failed));
    Executed ran = executor_.run(config, request);
    if (auto* stop = std::get_if<Stop>(&ran)) {
      if (stop->trial) {
        stop->trial->settings = config;
        stop->trial->quick = request.quick;
        if (auto failed = store_.record(*stop->trial)) return halt(std::move(*failed));
      }
      return halt(std::move(*stop));
    }
    trial = std::move(std::get<TrialMeasurement>(ran).trial);
  }
  trial->settings = config;
  trial->quick = request.quick;
  if (auto failed = store_.record(*trial)) return halt(std::move(*failed));
  return trial;
}

bool Evaluator::taken_from_store(const TrialResult& trial) const {
  const auto index = static_cast<std::size_t>(trial.id - 1);
  return trial.id > 0 && index < from_store_.size() && from_store_[index];
}

const TrialResult& Evaluator::add(TrialResult trial, bool from_store) {
  trial.id = static_cast<int>(trials_.size()) + 1;
  from_store_.push_back(from_store);
  measured_s_ += measurement_seconds(trial);  // the guard objective's samples count too
  if (trial.status == TrialStatus::ok) incumbent_low_ = std::max(incumbent_low_, lower_bound(trial));
  trials_.push_back(std::move(trial));
  cache_[trials_.back().settings] = trials_.size() - 1;
  if (trials_.back().status != TrialStatus::ok) record_failure(trials_.back());
  if (observer_) observer_(trials_.back());
  return trials_.back();
}

bool Evaluator::clearly_faster(const TrialResult& a, const TrialResult& b) const {
  return significantly_faster(a, b, gain_threshold());
}

bool Evaluator::apart(const TrialResult& a, const TrialResult& b) const {
  const double band = kNoGainSigmas * sample_noise();
  const auto wide_a = with_sample_band(a, band), wide_b = with_sample_band(b, band);
  return clearly_faster(wide_a, wide_b) || clearly_faster(wide_b, wide_a);
}

bool Evaluator::fails_guard(const TrialResult& trial) const {
  return strategies::fails_guard(trial, baseline_, options_.guard_tolerance);
}

double Evaluator::guard_tolerance() const { return options_.guard_tolerance; }

const probe::Settings& Evaluator::kernel_defaults() const { return options_.kernel_defaults; }

const TrialResult& Evaluator::best() const {
  std::vector<TrialResult> latest;  // a re-measured configuration counts once, as last measured
  latest.reserve(cache_.size());
  for (const auto& [config, index] : cache_) latest.push_back(trials_[index]);
  const TrialResult* pick = pick_winner(baseline_, latest, space_.baseline(), gain_threshold(), options_.guard_tolerance,
                                          options_.kernel_defaults);
  if (!pick) return baseline_;
  return trials_[cache_.at(pick->settings)];
}

}  // namespace disktune::strategies
