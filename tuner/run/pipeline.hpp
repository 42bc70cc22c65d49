// SPDX-License-Identifier: GPL-2.0-or-later
// The tune pipeline: baseline → strategy with the Evaluator → confirmation round → decision.
#pragma once

#include "probe/kernel_defaults.hpp"
#include "strategies/confirmation.hpp"
#include "strategies/evaluator.hpp"
#include "strategies/search_space.hpp"
#include "strategies/strategy.hpp"
#include "strategies/winner_rule.hpp"
#include "strategies/trial_executor.hpp"
#include "strategies/trial_store.hpp"
#include "tuner/run/noise.hpp"
#include "tuner/run/search_progress.hpp"
#include "tuner/run_error.hpp"
#include "tuner/trial/trial_settings.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace disktune::tuner {

/// What the pipeline runs, and under which rules.
struct PipelineInput {
  const strategies::SearchSpace& space;
  strategies::Strategy& strategy;
  probe::Settings original;        ///< the settings as found (what trials log their changes against)
  std::string device_name;         ///< for the progress lines
  bool simulated = false;          ///< progress lines say [SIMULATED]; seconds are virtual
  std::optional<std::size_t> max_trials;  ///< --max-trials
  std::optional<double> time_budget_s;    ///< --time-budget [measured s]: the search keeps the
                                          ///< confirmation round's minimum and the round fits the rest
  /// Check the baseline's noise against the smallest accepted gain (settle_noise) and say
  /// "too noisy" when it cannot be resolved; false for `evaluate` (its figures are taken without).
  bool settle_noise = true;
  /// What every trial runs with, as configured (the runner's before its limits derive): the
  /// baseline's noise repeats, samples per trial, --duration, the confirmation rounds, and
  /// the objective whose unit the progress lines print.
  TrialSettings trial = {};
  /// --tolerance (fraction): the guard objective's allowed shortfall against the baseline.
  double guard_tolerance = 0.05;
  /// Draw a live status line (status_line: trial i of N, elapsed, time left, best) under the
  /// trial lines, redrawn after each trial: for a terminal.
  bool live_status = false;
  /// Off a terminal: the same line (indented, "  trial 12 of about 31, ...") after each trial's
  /// line, so a log or journal shows the time left too.
  bool progress_lines = false;
  /// The terminal's width in columns: the status line is cut to one column less, so it never
  /// wraps (a wrapped line is cleared only in its last row). 0: not cut.
  std::size_t status_width = 0;
  /// Called after every search trial with where the search stands (tests read the ETA).
  std::function<void(const SearchProgress&)> on_progress{};
  bool emulated = false;  ///< a timing model behind the kernel: progress lines say [EMULATED]
  /// The kernel's stated defaults for the device (probe::kernel_defaults): the winner rule's
  /// tie order, after the settings as found.
  probe::Settings kernel_defaults = probe::kernel_defaults(std::nullopt);
};

/// What the pipeline found. On a baseline that could not be measured only `baseline_error`
/// is set (the caller restores and reports).
struct PipelineResult {
  std::optional<probe::Error> baseline_error;
  std::optional<strategies::Baseline> baseline;  ///< measured, or taken from the store
  bool resumed_baseline = false;                ///< taken from the store
  NoiseCheck noise;
  double before_search_s = 0.0;  ///< baseline and noise measurement [s]
  double search_s = 0.0;         ///< the search's trials [s]
  double confirmation_s = 0.0;   ///< the confirmation round [s]
  /// The search's trials in order, then the trial that wedged the device, if one did.
  std::vector<strategies::TrialResult> trials;
  std::size_t search_trials = 0;  ///< trials the Evaluator recorded (the wedged one not counted)
  bool budget_left = true;        ///< Evaluator::budget_left after the search
  std::optional<strategies::Stop> stop;  ///< what stopped the run, when something did
  ExitCode exit_code = kExitOk;
  std::string message;            ///< why the run ended early; empty when it completed
  /// The run's own --time-budget or --max-trials ended it before any trial (exit 1): a resume
  /// keeps those bounds and would end the same way, so the run is closed, not left to resume.
  bool bounds_spent = false;
  strategies::TrialResult best;   ///< the decided winner; the baseline's trial (id 0) to keep it
  std::optional<strategies::Confirmation> confirmation;
  std::optional<strategies::TieBreak> tie;  ///< the tie the winner rule broke (Decision::tie)
  std::vector<strategies::Unseparated> unseparated;  ///< finalists tied with the winner (Decision::unseparated)
  int confirm_rounds = 0;         ///< rounds the confirmation round ran with
  std::string confirmation_skipped;
  bool too_noisy = false;         ///< nothing beat a noise larger than the smallest accepted gain
  /// Settings no search trial changed (apply order names); with no trial at all the run is no
  /// answer: exit 1 and `message` say so.
  std::vector<std::string> unscreened;
  /// Settings whose values made a difference beyond the noise in the search
  /// (strategies::acted_settings), by name; empty when none did.
  std::vector<std::string> acting;
};

/// The settings of `space` whose value no trial changed from the space's baseline, by name.
std::vector<std::string> unscreened_settings(const strategies::SearchSpace& space,
                                             const std::vector<strategies::TrialResult>& trials);

/// The settings that acted in `evaluator`'s search (strategies::acted_settings), by name; of a
/// coupled group only those some trial changed (not using_dma when only xfermode was tried).
std::vector<std::string> acting_settings(const strategies::SearchSpace& space, const strategies::Evaluator& evaluator);

/// The exit code of a stop: signal 1, store failure 3, unreadable drive 3, failed restore 4, wedged 5.
ExitCode exit_code_of(const strategies::Stop& stop);

/// Run `input.strategy` over `input.space`, every trial through `executor` and `store`: the
/// baseline (strategies::obtain_baseline: from `store` when it holds one, else measured and
/// recorded), the noise check (settle_noise), the search through one Evaluator, then the
/// confirmation round through the same Evaluator (Evaluator::confirm) and the decision
/// (decide()). Every stop is a value (PipelineResult::stop, exit_code); a baseline that
/// could not be measured is PipelineResult::baseline_error (trial_verdict.hpp's baseline_error).
/// Progress lines go to `log`. Restoring and the report are the caller's.
PipelineResult run_pipeline(const PipelineInput& input, strategies::TrialStore& store,
                            strategies::TrialExecutor& executor, std::ostream& log);

/// One progress line of a trial: status, figure (in `objective`'s unit) and the changes from `original`.
/// `kind`: results::device_kind ("SIMULATED", "EMULATED" or ""), shown as "[KIND]".
void log_trial(std::ostream& log, const strategies::TrialResult& trial, const probe::Settings& original,
               const std::string& kind, const bench::Objective& objective);

}  // namespace disktune::tuner
