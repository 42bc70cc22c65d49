// SPDX-License-Identifier: GPL-2.0-or-later
// The tune pipeline, one straight line for `tune` and `evaluate`: baseline, search, confirmation, decision.
#include "tuner/run/pipeline.hpp"

#include "probe/core/text.hpp"
#include "results/report.hpp"
#include "results/table.hpp"
#include "strategies/acted.hpp"
#include "strategies/baseline_trials.hpp"
#include "tuner/host/shell_word.hpp"
#include "tuner/run/confirm_round.hpp"
#include "tuner/run/decision.hpp"
#include "tuner/run/run_notes.hpp"
#include "tuner/trial/confirm_progress.hpp"
#include "tuner/trial/trial_verdict.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>
#include <variant>

namespace disktune::tuner {
namespace {

std::string kind_of(const PipelineInput& input) { return results::device_kind(input.simulated, input.emulated); }

using strategies::TrialResult;

// Said before the baseline is measured: on a real disk it takes minutes with nothing else shown.
void announce_baseline(const TrialSettings& trial, bool simulated, std::ostream& log) {
  const std::string seconds = probe::printf_number("%g", trial.workload.duration.count());
  log << "disktune: measuring the baseline (the settings as found): " << 1 + trial.noise_repeats
      << " trials of " << trial.sampling.min_samples << "-" << trial.sampling.max_samples << " samples of " << seconds
      << (simulated ? " simulated s" : " s") << " each, for its figure and its noise\n" << std::flush;
}

// Why no trial ran, and what budget would leave room for a search: the baseline's time, a
// trial's at its most (--max-repeats samples and a warm-up at the baseline's time per sample:
// the baseline's first trial, 3 samples, made "216 s" that held 4 trials of 33 s where 440 s
// held 10) and the confirmation round's minimum.
std::string no_trial_message(const PipelineInput& input, const PipelineResult& result) {
  if (!input.time_budget_s)
    return "no trial ran: --max-trials " + std::to_string(input.max_trials.value_or(0)) +
           " ended the search first; the run is closed: the next tune starts over";
  const double sample_s = seconds_per_sample(result.baseline->trial);
  const double trial_s = sample_s * (input.trial.sampling.max_samples + 1);
  const double reserve_s = confirmation_cost_s(kMinConfirmRounds, sample_s);
  char text[512];
  std::snprintf(text, sizeof text,
                "no trial ran: the baseline and its noise measured %.0f s of the --time-budget of %g s, and a trial "
                "(up to about %.0f s) with the confirmation round's minimum (about %.0f s) did not fit; --time-budget "
                "%.0f or more leaves room for at least 10 trials; the run is closed: the next tune starts over",
                result.before_search_s, *input.time_budget_s, trial_s, reserve_s,
                std::ceil(result.before_search_s + 10.0 * trial_s + reserve_s));
  return text;
}

// Whether --time-budget leaves room to measure the noise again with --max-repeats samples per
// trial (as many trials as the baseline took, each at up to max/min times its samples); said when not.
bool room_to_remeasure(const PipelineInput& input, const strategies::Baseline& baseline, double min_gain_pct,
                       std::ostream& log) {
  if (!input.time_budget_s || baseline.noise_floor_pct <= min_gain_pct) return true;
  const auto& sampling = input.trial.sampling;
  const double again = baseline.measured_s * sampling.max_samples / std::max(1, sampling.min_samples);
  if (baseline.measured_s + again <= *input.time_budget_s) return true;
  log << "  the noise is not measured again: --time-budget leaves no room for it\n";
  return false;
}

// The noise between baseline trials, said and (with settle_noise) acted on; `baseline` takes
// the re-measured noise.
NoiseCheck check_noise(const PipelineInput& input, strategies::Baseline& baseline, bool resumed,
                       strategies::TrialExecutor& executor, strategies::TrialStore& store, std::ostream& log) {
  log_trial(log, baseline.trial, input.original, kind_of(input), input.trial.objective);
  const std::string noise = probe::printf_number("%.2f", baseline.noise_floor_pct);
  log << "  noise between " << baseline.aa_medians.size() << " baseline trials: " << noise << " %\n";
  if (!input.settle_noise) return {};
  const double kMinGain = strategies::EvaluatorOptions{}.min_gain;
  NoiseInput noise_input{executor, store, input.original, input.device_name, input.trial.sampling, input.trial.objective};
  if (resumed) noise_input.kept_all_samples = baseline.all_samples;
  const bool keep_figures = resumed || !room_to_remeasure(input, baseline, 100.0 * kMinGain, log);
  return settle_noise(noise_input, baseline, keep_figures, 100.0 * kMinGain, log);
}

strategies::EvaluatorOptions evaluator_options(const PipelineInput& input, const PipelineResult& result) {
  strategies::EvaluatorOptions options;
  options.max_trials = input.max_trials;
  options.time_budget_s = input.time_budget_s;
  options.noise_floor = result.baseline->noise_floor_pct / 100.0;
  options.guard_tolerance = input.guard_tolerance;
  options.spent_before_s = result.before_search_s;
  options.reserve_s = confirmation_cost_s(kMinConfirmRounds, seconds_per_sample(result.baseline->trial));
  options.all_samples = result.noise.all_samples;
  options.kernel_defaults = input.kernel_defaults;
  return options;
}

// What the time left is computed from: the budget, the search's reserve and the confirmation round.
TimeLeftBasis time_left_basis(const PipelineInput& input, const PipelineResult& result) {
  const double sample_s = seconds_per_sample(result.baseline->trial);
  TimeLeftBasis basis;
  basis.before_search_s = result.before_search_s;
  basis.budget_s = input.time_budget_s;
  basis.reserve_s = confirmation_cost_s(kMinConfirmRounds, sample_s);
  basis.unit_s = unit_seconds(result.baseline->trial);
  basis.round_budget_s = confirmation_cost_s(1, sample_s);
  basis.rounds = input.trial.confirm_rounds;
  basis.min_rounds = std::min(kMinConfirmRounds, input.trial.confirm_rounds);
  basis.max_finalists = kMaxFinalists;
  basis.sample_slack = kContenderSampleSlack;
  return basis;
}

// After a trial: the terminal's status line redrawn, or off a terminal a line of its own.
void show_progress(const PipelineInput& input, const SearchProgress& progress, double elapsed_s, std::ostream& log) {
  auto line = status_line(progress, input.trial.objective, elapsed_s, input.simulated);
  if (input.progress_lines) {
    log << "  " << line << '\n';
    return;
  }
  if (input.status_width > 1 && line.size() >= input.status_width) line.resize(input.status_width - 1);
  log << line << std::flush;
}

// What the search came to.
struct Searched {
  std::vector<TrialResult> trials;  // in order, then the trial that wedged the device, if one did
  std::size_t counted = 0;          // trials the Evaluator recorded
  std::optional<strategies::Stop> stop;
};

// The search: the strategy through the Evaluator. The elapsed time counts the whole run, not
// only this resume: the store's run clock (a journal's goes on from the interrupted run's
// last record); a store without one, from `started` (when this process began the run, its
// baseline included) plus `kept_s` (the interrupted run's measured seconds a resume took
// over, its baseline's) and each trial taken from the store's own. A trial taken from the
// journal is listed as such, without a status line: its time left was the interrupted run's.
// Nor has a trial that ends after a stop request one: "about 3 m left" under "stop requested"
// misleads.
Searched search(const PipelineInput& input, strategies::Evaluator& evaluator, const strategies::TrialStore& store,
                strategies::TrialExecutor& executor, const TimeLeftBasis& basis,
                std::chrono::steady_clock::time_point started, double kept_s, std::ostream& log) {
  const auto search_started = std::chrono::steady_clock::now();
  bool listed_kept = false, listed_new = false;
  double kept_trials_s = 0.0;  // the trials taken from the journal: measured, not in this wall time
  evaluator.set_observer([&](const TrialResult& trial) {
    if (input.live_status) log << "\r\033[K";  // the status line gives way to the trial's line
    const bool kept = evaluator.taken_from_store(trial);
    if (kept && !listed_kept) log << "  the interrupted run's trials, taken from the journal (not measured again):\n";
    if (!kept && listed_kept && !listed_new) log << "  measured in this resume:\n";
    listed_kept = listed_kept || kept;
    listed_new = listed_new || !kept;
    log_trial(log, trial, input.original, kind_of(input), input.trial.objective);
    if (kept) {
      kept_trials_s += strategies::measurement_seconds(trial);
      return;
    }
    if (!input.live_status && !input.progress_lines && !input.on_progress) return;
    if (executor.pending_stop()) return;
    auto progress = search_progress(input.strategy, input.space, evaluator, basis, input.max_trials);
    progress.search_wall_s =
        kept_trials_s + std::chrono::duration<double>(std::chrono::steady_clock::now() - search_started).count();
    if (input.on_progress) input.on_progress(progress);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
    if (input.live_status || input.progress_lines)
      show_progress(input, progress, store.run_seconds().value_or(kept_s + kept_trials_s + elapsed.count()), log);
  });
  if (input.space.groups().empty())
    log << "disktune: nothing to tune on " << input.device_name
        << ": every setting is unsupported, read-only or not selected (see " << quoted_command({"disktune", "plan"})
        << ")\n";
  input.strategy.run(input.space, evaluator);
  if (input.live_status) log << "\r\033[K" << std::flush;
  // Said here, before the round: said at the end it read as the round's outcome.
  if (!evaluator.budget_left() && !evaluator.stop() && !executor.pending_stop() && !evaluator.trials().empty())
    log << "disktune: " << budget_note({input.time_budget_s, input.max_trials, {}}, evaluator.trials().size()) << '\n';
  Searched searched{{evaluator.trials().begin(), evaluator.trials().end()}, evaluator.trials().size(), evaluator.stop()};
  if (searched.stop && searched.stop->trial) {  // the evaluator never counts it: the search stopped
    TrialResult wedged = *searched.stop->trial;
    wedged.id = static_cast<int>(searched.trials.size()) + 1;
    log_trial(log, wedged, input.original, kind_of(input), input.trial.objective);
    searched.trials.push_back(std::move(wedged));
  }
  return searched;
}

// The run ends on `stop`: its exit code and message.
void end_on(PipelineResult& result, strategies::Stop stop) {
  result.exit_code = exit_code_of(stop);
  result.message = stop.message;
  result.stop = std::move(stop);
}

}  // namespace

std::vector<std::string> unscreened_settings(const strategies::SearchSpace& space,
                                             const std::vector<strategies::TrialResult>& trials) {
  std::vector<std::string> names;
  for (const auto& group : space.groups())
    for (const auto id : group.settings) {
      const auto baseline = space.baseline().find(id);
      const auto differs = [&](const probe::Settings& settings) {
        const auto it = settings.find(id);
        return it != settings.end() && (baseline == space.baseline().end() || it->second != baseline->second);
      };
      // A setting a group carries along at one value (nr_requests beside the scheduler) is not
      // searched, nor one it carries at the value each choice needs while --only left it out
      // (nr_requests 64 beside a scheduler that accepts no more).
      if (std::none_of(group.choices.begin(), group.choices.end(), differs)) continue;
      if (std::any_of(space.excluded().begin(), space.excluded().end(), [&](const auto& e) { return e.id == id; }))
        continue;
      const bool tried = std::any_of(trials.begin(), trials.end(),
                                     [&](const strategies::TrialResult& trial) { return differs(trial.settings); });
      if (!tried) names.emplace_back(probe::setting_name(id));
    }
  return names;
}

std::vector<std::string> acting_settings(const strategies::SearchSpace& space, const strategies::Evaluator& evaluator) {
  std::vector<std::string> names;
  for (const auto id : strategies::acted_settings(space, evaluator)) names.emplace_back(probe::setting_name(id));
  return names;
}

ExitCode exit_code_of(const strategies::Stop& stop) {
  switch (stop.reason) {
    case strategies::StopReason::signal: return kExitPartial;
    case strategies::StopReason::store_failed: return kExitDevice;
    case strategies::StopReason::unreadable: return kExitDevice;
    case strategies::StopReason::restore_failed: return kExitRestoreFailed;
    case strategies::StopReason::wedged: return kExitWedged;
  }
  return kExitDevice;
}

void log_trial(std::ostream& log, const TrialResult& trial, const probe::Settings& original, const std::string& kind,
               const bench::Objective& objective) {
  char figure[64];
  std::snprintf(figure, sizeof figure, "%8s %s %s", bench::figure_number(objective, trial.median).c_str(),
                std::string(bench::unit_of(objective)).c_str(), results::spread_text(trial).c_str());
  log << "  " << (kind.empty() ? "" : "[" + kind + "] ") << "trial " << trial.id << ": " << to_string(trial.status) << "  "
      << (trial.status == strategies::TrialStatus::ok ? figure : "") << "  "
      << probe::format_settings(strategies::changes_from(original, trial.settings))
      << (trial.detail.empty() ? "" : "  (" + trial.detail + ")") << '\n';
}

namespace {

// The run as far as its baseline: measured (or taken from the store) and its noise settled;
// or why the run ends there (baseline_error, or a stop with the baseline kept).
PipelineResult baseline_phase(const PipelineInput& input, strategies::TrialStore& store,
                              strategies::TrialExecutor& executor, std::ostream& log) {
  PipelineResult result;
  if (!store.saved_baseline()) announce_baseline(input.trial, input.simulated, log);
  auto obtained = strategies::obtain_baseline(executor, store, input.original, input.trial.noise_repeats);
  if (!obtained.in_flight.empty())
    log << "disktune: the interrupted run died in " << obtained.in_flight
        << " of the settings as found: measured again (a second restart of the machine there ends the run)\n";
  if (obtained.failed) {
    result.baseline_error = baseline_error(*obtained.failed, input.device_name, obtained.stopped);
    if (obtained.stop) end_on(result, std::move(*obtained.stop));  // a journal that cannot take the intent
    return result;
  }
  result.baseline = std::move(obtained.baseline);
  result.resumed_baseline = obtained.resumed;
  if (obtained.checksum_change) {
    char crcs[64];
    std::snprintf(crcs, sizeof crcs, "CRC-32 %08x then, %08x now", obtained.checksum_change->then,
                  obtained.checksum_change->now);
    log << "disktune: the disk's data changed since the interrupted run (" << crcs
        << ": written meanwhile); later trials must read what it holds now\n";
  }
  if (obtained.stop) {  // disk full: the table and report still come
    result.best = result.baseline->trial;
    end_on(result, std::move(*obtained.stop));
    return result;
  }
  result.noise = check_noise(input, *result.baseline, result.resumed_baseline, executor, store, log);
  if (!result.resumed_baseline && !result.noise.unstable) {
    // The noise check's samples decision and its time are the run's from now on: journaled with
    // the re-measured noise, or a resumed run would sample otherwise (3 samples a trial judged by
    // the noise of 10) and its --time-budget would forget the noise's measurement.
    result.baseline->measured_s += result.noise.measured_s;
    result.baseline->all_samples = result.noise.all_samples;
    if (auto stop = store.record_baseline(*result.baseline)) {
      result.best = result.baseline->trial;
      end_on(result, std::move(*stop));
      return result;
    }
  }
  result.before_search_s = result.baseline->measured_s;
  // A repeat measuring the noise was unstable (another process changed a setting, other data,
  // kernel errors): no search on that baseline.
  if (result.noise.unstable) result.baseline_error = result.noise.unstable;
  return result;
}

// The confirmation round judged by its own trials' noise, below `search_threshold` (the
// search's: the minimum gain or the noise floor, whichever is larger).
bool round_judged_lower(const PipelineResult& result, double search_threshold) {
  return result.confirmation && result.confirmation->gain_threshold < search_threshold - 1e-9;
}

// The decided outcome into `result`: the winner, the round and the rounds it took (kept short
// when one contender was far ahead after the first: said on `log`).
void take_decision(Decision& decision, int rounds, double search_threshold, PipelineResult& result, std::ostream& log) {
  result.best = decision.winner;
  result.confirmation_skipped = decision.round_skipped;
  result.confirmation = std::move(decision.confirmation);
  const bool far_ahead = result.confirmation && result.confirmation->far_ahead;
  const bool alike = result.confirmation && result.confirmation->alike;
  result.confirm_rounds = far_ahead || alike ? rounds_in_call(0, rounds) : rounds;
  if (far_ahead || alike)
    log << "disktune: confirmation round done: "
        << (far_ahead ? "one contender is far ahead of the others"
                      : "the finalists read alike (within the minimum gain), all far ahead of the baseline")
        << " after " << result.confirm_rounds << " rounds; the other " << rounds - result.confirm_rounds
        << " would not change the answer\n";
  if (round_judged_lower(result, search_threshold))
    log << "disktune: the confirmation round's own trials read a noise of "
        << probe::printf_number("%.2f", 100.0 * result.confirmation->noise) << " %, below the "
        << probe::printf_number("%.2f", 100.0 * search_threshold)
        << " % noise floor measured between the baseline's trials before the search (by which the search judged "
           "gains): the round judges them by "
        << probe::printf_number("%.2f", 100.0 * result.confirmation->gain_threshold) << " %\n";
  result.tie = decision.tie;
  result.unseparated = decision.unseparated;
  if (result.confirmation)
    for (const auto& trial : result.confirmation->results) result.confirmation_s += trial.measured_s;
  result.confirmation_s += decision.dropped_round_s;
}

}  // namespace

PipelineResult run_pipeline(const PipelineInput& input, strategies::TrialStore& store,
                            strategies::TrialExecutor& executor, std::ostream& log) {
  const auto started = std::chrono::steady_clock::now();
  PipelineResult result = baseline_phase(input, store, executor, log);
  if (result.baseline_error || result.stop) return result;

  strategies::Evaluator evaluator(input.space, executor, store, result.baseline->trial, evaluator_options(input, result));
  const double kept_s = result.resumed_baseline ? result.before_search_s : 0.0;
  auto searched = search(input, evaluator, store, executor, time_left_basis(input, result), started, kept_s, log);
  result.trials = std::move(searched.trials);
  result.search_trials = searched.counted;
  result.search_s = evaluator.measured_s();
  result.budget_left = evaluator.budget_left();
  result.best = evaluator.best();
  if (searched.stop) end_on(result, std::move(*searched.stop));
  result.unscreened = unscreened_settings(input.space, result.trials);
  result.acting = acting_settings(input.space, evaluator);
  if (result.search_trials > 0 && result.acting.empty() && result.unscreened.empty() && result.best.id == 0)
    // Not "the baseline is kept": the confirmation round that follows decides that.
    log << "disktune: no setting's effect exceeded the noise in the screening (every value tried tied with the "
           "baseline)\n";
  if (result.exit_code == kExitOk && result.search_trials == 0 && input.max_trials == std::size_t{0})
    return result;  // --max-trials 0 asked for the baseline and its noise only: no search, no answer
  if (result.exit_code == kExitOk && result.search_trials == 0 && !result.unscreened.empty()) {
    result.exit_code = kExitPartial;  // a baseline kept untried is no measured answer
    result.bounds_spent = true;
    result.message = no_trial_message(input, result);
    return result;
  }
  if (result.exit_code != kExitOk) return result;

  const int rounds = confirm_rounds_for(input, result);
  auto decided = decide_winner(input, result, evaluator, rounds, log);
  if (auto* stop = std::get_if<strategies::Stop>(&decided)) {
    end_on(result, std::move(*stop));
  } else {
    take_decision(std::get<Decision>(decided), rounds, evaluator.gain_threshold(), result, log);
  }
  if (auto stop = executor.pending_stop()) {  // asked to stop during the confirmation round
    result.best = evaluator.baseline();
    result.confirmation.reset();
    result.tie.reset();
    result.unseparated.clear();
    result.exit_code = exit_code_of(*stop);
    result.message = stop->message;
  }
  if (result.exit_code == kExitOk && result.best.id == 0 && !result.noise.resolvable) {
    result.too_noisy = true;
    result.exit_code = kExitTooNoisy;
    // Short: the figures are in the log above, the table and the report's noise_detail.
    result.message = "too noisy for an answer: no configuration beat the noise (" + result.noise.summary + ")";
    if (round_judged_lower(result, evaluator.gain_threshold()))
      result.message += "; the confirmation round judged by its own trials' " +
                        probe::printf_number("%.2f", 100.0 * result.confirmation->gain_threshold) + " %, and none beat that";
  }
  return result;
}

}  // namespace disktune::tuner
