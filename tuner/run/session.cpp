// SPDX-License-Identifier: GPL-2.0-or-later
// The tune session: orchestration only; measuring is TrialRunner's, searching the strategy's.
#include "tuner/device/hold.hpp"

#include "tuner/host/shell_word.hpp"
#include "tuner/device/open_device.hpp"
#include "probe/core/text.hpp"
#include "probe/device.hpp"
#include "tuner/run/session.hpp"
#include "tuner/run/resume_hint.hpp"
#include "tuner/run/resume_kept.hpp"
#include "tuner/run/run_notes.hpp"
#include "tuner/run/tune_trial_settings.hpp"

#include "probe/in_use.hpp"
#include "probe/kernel_defaults.hpp"
#include "probe/linux/optimal_io_size.hpp"
#include "probe/watch/last_close.hpp"
#include "results/snippet.hpp"
#include "strategies/registry.hpp"
#include "tuner/host/clock_text.hpp"
#include "tuner/device_context.hpp"
#include "tuner/host/device_lock.hpp"
#include "tuner/host/emulation.hpp"
#include "tuner/run/noise.hpp"
#include "tuner/trial/child_executor.hpp"
#include "tuner/run/objective_setup.hpp"
#include "tuner/run/pipeline.hpp"
#include "tuner/trial/settings_writer.hpp"
#include "tuner/journal/pending_restore.hpp"
#include "tuner/journal/run_journal.hpp"
#include "tuner/journal/search_bounds.hpp"
#include "tuner/host/signals.hpp"
#include "tuner/host/time_limits.hpp"
#include "tuner/trial/trial_runner.hpp"
#include "tuner/trial/trial_verdict.hpp"
#include "tuner/host/version.hpp"

#include <iostream>

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <ostream>

namespace disktune::tuner {
namespace {

using strategies::TrialResult;

// "multcount, io_support, ..." : the knobs `space` refuses because the disk is in use.
std::string refused_in_use(const strategies::SearchSpace& space) {
  std::string names;
  for (const auto& e : space.excluded())
    if (e.reason.starts_with(probe::kInUsePrefix)) names += (names.empty() ? "" : ", ") + std::string(probe::setting_name(e.id));
  return names;
}

// Wall seconds since `start`.
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

results::Report start_report(const TuneOptions& tune, const DeviceContext& context,
                             const strategies::SearchSpace& space, const std::string& strategy) {
  results::Report report;
  report.tool_version = std::string(tool_version());
  report.kernel = kernel_release();
  report.started_at = utc_timestamp();
  report.strategy = strategy;
  report.repeats = tune.measure.repeats;
  report.max_repeats = tune.measure.max_repeats;
  report.seed = tune.device.seed;
  report.device = describe_device(context);
  report.identify = context.identify;
  report.space = describe_space(space);
  return report;
}

// The report's record of what was measured and how: the objectives, the tolerance, fio's
// version and every option the journal keeps.
void record_measurement(results::Report& report, const TrialSettings& trial, const ReadyObjectives& objectives,
                        double tolerance, const boost::json::object& recorded_options) {
  report.objective = trial.objective;
  report.guard = trial.guard;
  report.tolerance = tolerance;
  report.fio_version = objectives.fio_version;
  report.options = recorded_options;
}

// The trial the answer is quoted against: the confirmation round's baseline when that round
// measured it (the rule of results::answer_baseline), else the search's.
const TrialResult& reference_trial(const std::optional<results::ConfirmationRound>& round,
                                   const TrialResult& search_baseline) {
  if (!round || round->results.empty()) return search_baseline;
  const TrialResult& base = round->results.front();
  return base.status == strategies::TrialStatus::ok && base.median > 0.0 ? base : search_baseline;
}

// The winner's figures and its speedup come from one source, `reference`'s: keeping the
// baseline quotes the reference itself (speedup 1).
results::Winner describe_winner(const TrialResult& best, const TrialResult& reference,
                                const probe::Settings& original) {
  const bool keep = best.id == 0;
  const TrialResult& figures = keep ? reference : best;
  results::Winner winner;
  winner.ci_low = figures.ci_low;
  winner.ci_high = figures.ci_high;
  winner.settings = keep ? original : best.settings;
  winner.changes = strategies::changes_from(original, winner.settings);
  winner.median = figures.median;
  winner.spread_pct = figures.spread_pct;
  winner.trial_id = best.id;
  winner.keep_baseline = keep;
  winner.speedup = !keep && reference.median > 0 ? best.median / reference.median : 1.0;
  return winner;
}

results::ConfirmationRound describe_confirmation(const strategies::Confirmation& round, int rounds) {
  results::ConfirmationRound described;
  described.rounds = rounds;
  described.results = round.results;
  described.winner_trial_id = round.results[round.winner].id;
  described.noise_pct = 100.0 * round.noise;
  described.gain_threshold_pct = 100.0 * round.gain_threshold;
  return described;
}

// A wedged device: no restore from this process (it could block as the trial did); one
// attempt from a watched child unless a restore child already wedged; then exit 5.
void end_wedged(TuneOutcome& outcome, TrialRunner& runner) {
  results::Report& report = outcome.report;
  report.wedged = true;
  report.wedged_detail = runner.health().wedged_detail();
  if (runner.health().restore_blocks()) {
    report.restore_detail = "not attempted: restoring blocks on this device";
  } else if (const auto restored = runner.restore_watched()) {
    report.restored = true;
  } else {
    report.restore_detail = restored.error().message();
  }
  // Our exit closes the device; if that is its last close it waits for the stuck reads.
  if (auto keeper = probe::leave_last_close_to_child(); keeper)
    report.wedged_detail += "; keeper pid " + std::to_string(*keeper) + " makes the device's last close";
  else
    report.wedged_detail += "; " + keeper.error().message();
  outcome.exit_code = kExitWedged;
  outcome.message = "device " + report.device.path + " is wedged (" + report.wedged_detail +
                    "); stopped, no further trial touches it; " +
                    (report.restored ? "original settings restored from a watched child"
                                     : "original settings NOT restored (" + report.restore_detail +
                                           "): restore them once the device recovers (disktune restore)");
}

// The end of every run that got to measuring: restore (from a watched child: after a hung
// trial a restore from here could block), then the outcome's last fields. `bounds_spent`:
// PipelineResult::bounds_spent, a partial run that is closed all the same.
void finish_run(TuneOutcome& outcome, TrialRunner& runner, RestoreGuard& guard, RunJournal& journal,
                bool journal_failed = false, bool bounds_spent = false) {
  guard.dismiss();
  // The restore itself can find the device wedged: check after it.
  const auto restored = runner.health().wedged() ? probe::Result<void>{} : runner.restore_watched();
  if (runner.health().wedged()) {
    end_wedged(outcome, runner);
  } else if (!restored) {
    outcome.report.restore_detail = restored.error().message();
    outcome.exit_code = kExitRestoreFailed;
    outcome.message = "could not restore the original settings: " + restored.error().message();
  } else {
    outcome.report.restored = true;
  }
  outcome.report.completed = outcome.exit_code == kExitOk;
  outcome.report.stop_reason = outcome.message;
  outcome.report.finished_at = utc_timestamp();
  // An interrupted or wedged run stays unfinished in the journal: the next start restores
  // the original settings from it and resumes.
  const bool interrupted = outcome.exit_code == kExitPartial && !bounds_spent;
  if (interrupted && outcome.report.restored && !journal_failed) (void)journal.record_restored();  // nothing owed
  if (interrupted || outcome.exit_code == kExitWedged || journal_failed) return;
  if (auto stop = journal.finish(outcome.report.restored)) {  // the end record lost: say so, keep the rest
    if (outcome.exit_code == kExitOk || outcome.exit_code == kExitTooNoisy) outcome.exit_code = kExitDevice;
    outcome.message = stop->message;
    outcome.report.completed = false;
    outcome.report.stop_reason = outcome.message;
  }
}


// A baseline that could not be measured ends the run: after a stop (a journal that could not
// take a trial's intent: exit 3, table and report), a change behind its
// back (the device is fine: no read check, exit 1, the journal left to resume) or on a
// wedged device, with an outcome; else with RunError (exit 3), once the original settings
// are restored.
TuneOutcome end_without_baseline(TuneOutcome outcome, const probe::Error& error, bool journal_failed,
                                 const PipelineResult& result, const probe::Settings& original, TrialRunner& runner,
                                 RestoreGuard& guard, RunJournal& journal) {
  if (journal_failed) {  // nothing measured without its intent record: the table and report say why
    outcome.exit_code = result.exit_code;
    outcome.message = result.message;
  } else if (error.code == std::errc::operation_canceled) {  // a second signal (or the grace) ended the baseline
    outcome.exit_code = kExitPartial;
    outcome.message = stop_message(stop_requested());
  } else if (baseline_changed_behind(error)) {
    outcome.exit_code = kExitPartial;
    outcome.message = concurrent_change_message(error);
  } else {
    // A hung read can leave requests in flight that a restore from here would wait on.
    guard.dismiss();
    auto restored = runner.health().wedged() ? probe::Result<void>{} : runner.restore_watched();
    // Reads a killed child left in flight would make this process's last close of the
    // device wait for ever: the read check (in a child) finds such a device wedged. A
    // baseline that was merely slow (errc::timed_out) says nothing about the device.
    if (restored && !runner.health().wedged() && error.code != std::errc::timed_out)
      restored = runner.verify_readable();
    if (!runner.health().wedged())
      throw RunError(kExitDevice,
                     error.message() + (restored ? "" : "; could not restore: " + restored.error().message()));
  }
  outcome.report.winner.settings = original;
  outcome.report.winner.keep_baseline = true;
  finish_run(outcome, runner, guard, journal, journal_failed);
  return outcome;
}

// The report's search, confirmation and winner, from what the pipeline found.
void report_pipeline(TuneOutcome& outcome, const PipelineResult& result, const probe::Settings& original) {
  results::Report& report = outcome.report;
  const strategies::Baseline& baseline = *result.baseline;
  report.baseline = baseline;
  report.noise_floor_pct = baseline.noise_floor_pct;
  report.noise_detail = result.noise.detail;
  report.all_samples = result.noise.all_samples;
  report.trials = result.trials;
  report.measured_s = result.before_search_s + result.search_s + result.confirmation_s;
  report.confirmation_skipped = result.confirmation_skipped;
  if (result.confirmation) report.confirmation = describe_confirmation(*result.confirmation, result.confirm_rounds);
  report.too_noisy = result.too_noisy;
  report.unscreened = result.unscreened;
  report.acting = result.acting;
  outcome.exit_code = result.exit_code;
  outcome.message = result.message;
  report.winner = describe_winner(result.best, reference_trial(report.confirmation, baseline.trial), original);
  report.winner.confirmed = report.confirmation.has_value();
  report.winner.tie = result.tie;
  report.winner.unseparated = result.unseparated;
}

std::optional<strategies::Stop> signal_stop() {
  if (const int signal = stop_requested()) return strategies::Stop{strategies::StopReason::signal, stop_message(signal), {}};
  return std::nullopt;
}

// Nothing --only names can change here: refused now, not after minutes of baseline (unless
// --max-trials 0 asks for the baseline only); the journal is finished (only the probe wrote,
// and it restored), so the next tune starts anew.
strategies::SearchSpace tunable_space(const DeviceContext& context, const TuneOptions& tune, const SearchScope& scope,
                                      RunJournal& journal) {
  auto space = plan_space(context, SpaceBounds{scope.only, scope.safe_only, tune.device.allow_mounted});
  if (!space.groups().empty() || !scope.only || tune.measure.max_trials == std::size_t{0}) return space;
  if (auto stop = journal.finish(true)) throw RunError(kExitDevice, stop->message);
  throw RunError(kExitUsage, "--only: nothing to tune on " + context.device->path() + ": every setting named is "
                             "unsupported, read-only or refused here (see " +
                             quoted_command({"disktune", "plan", context.device->path()}) +
                             "; --max-trials 0 measures the baseline only)");
}

// The run's first lines: what is tuned (SIMULATED or EMULATED named), how, where its journal
// is, and what the device cannot show (no identify data; reads through the page cache).
void announce_run(const DeviceContext& context, const std::string& strategy_name, std::size_t legal_count,
                  const std::string& journal_path, std::ostream& log) {
  const bool simulated = context.device->simulated();
  const std::string kind = results::device_kind(simulated, !context.emulated_by.empty());
  log << "disktune: tuning " << (kind.empty() ? "" : kind + " drive ") << context.device->path()
      << (context.emulated_by.empty() ? "" : " (over " + context.emulated_by + ")")
      << (context.identify ? " (" + context.identify->model + ")" : "") << " with " << strategy_name << ", "
      << legal_count << " legal configurations; journal " << journal_path << '\n';
  if (!context.identify_note.empty()) log << "  block-layer tuning only: " << context.identify_note << '\n';
  if (!simulated)
    if (const auto note = page_cache_note(context.device->held()); !note.empty()) log << "  note: " << note << '\n';
}

// A terminal gets the live status line (cut to its width), a log or pipe a line per trial.
void show_progress_on(PipelineInput& input, const std::ostream& log) {
  input.live_status = &log == &std::cerr && ::isatty(STDERR_FILENO) == 1;
  input.progress_lines = !input.live_status;
  if (winsize size{}; input.live_status && ::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0) input.status_width = size.ws_col;
}


// The strategy of that name; an unknown name is a usage error listing the known ones.
std::unique_ptr<strategies::Strategy> named_strategy(const std::string& name) {
  auto strategy = strategies::make_strategy(name);
  if (!strategy) throw RunError(kExitUsage, strategy.error().op);
  return std::move(*strategy);
}

// A run on data in use (--allow-mounted) says what its evidence can no longer see.
void note_data_in_use(results::Report& report, const strategies::SearchSpace& space, std::ostream& log) {
  report.integrity_note = std::string(kDataInUseNote);
  log << "  " << kDataInUseNote << '\n';
  if (const auto refused = refused_in_use(space); !refused.empty())
    log << "  data-safe knobs only: " << refused << " refused on a disk in use (plan --allow-mounted says why)\n";
}

// Each use of the disk that appeared during the run joins the report's integrity note.
void note_appeared_uses(results::Report& report, const TrialRunner& runner) {
  for (const auto& use : runner.appeared_uses())
    report.integrity_note += (report.integrity_note.empty() ? "" : "; ") + use;
}

PipelineInput pipeline_input(const strategies::SearchSpace& space, strategies::Strategy& strategy,
                             const DeviceContext& context, const SearchBounds& bounds, const TrialSettings& trial_settings,
                             double tolerance) {
  const bool simulated = context.device->simulated();
  PipelineInput input{space, strategy, context.original, context.device->path(), simulated,
                      bounds.max_trials, bounds.time_budget_s, true, trial_settings, tolerance};
  input.emulated = !context.emulated_by.empty();
  input.kernel_defaults = probe::kernel_defaults(probe::optimal_io_size_bytes(context.device->held()), ::sysconf(_SC_PAGESIZE));
  return input;
}

}  // namespace

void refuse_tune_in_use(const TuneOptions& tune) {
  try {
    refuse_device_in_use(tune.device, "tune");
  } catch (const RunError& refusal) {
    throw RunError(refusal.code(), refusal.what() + pending_restore_note(tune.device.spec, tune.journal.path));
  }
}

TuneOutcome run_tune(const TuneOptions& tune, std::ostream& log) {
  const auto wall_start = std::chrono::steady_clock::now();
  const std::string strategy_name = tune.measure.strategy.empty() ? strategies::default_strategy_name() : tune.measure.strategy;
  const auto strategy = named_strategy(strategy_name);
  install_stop_handlers();  // before anything is opened: a stop request is always handled
  refuse_unwritable_name(tune.device.spec, "tune");
  // The lock first: a disk another disktune command holds is refused as that, not as in use.
  const DeviceLock lock(tune.device.spec);
  refuse_tune_in_use(tune);
  DeviceContext context = open_device_unprobed(tune.device, log);
  hold_device(context, lock, tune.device, "tune");
  const bool simulated = context.device->simulated();
  const ReadyObjectives objectives = ready_objectives(tune.measure.objectives, *context.device);
  TrialSettings trial_settings = trial_settings_for(tune, simulated, objectives.objectives);
  const SearchBounds given{tune.measure.time_budget_s, tune.measure.max_trials, tune.measure.noise_repeats};
  auto recorded_options = measurement_options(trial_settings, strategy_name, tune.device.seed, tune.measure.tolerance,
                                              tune.command_line);
  record_search_bounds(recorded_options, given, trial_settings.noise_repeats);
  const SearchScope given_scope{tune.measure.only, tune.safe_only};
  record_search_scope(recorded_options, given_scope);
  // Record before you probe (the capability probe writes); may restore a crashed run's originals.
  const auto opened_journal = RunJournal::open(tune.journal, tune.device, context, recorded_options, log);
  RunJournal& journal = *opened_journal;
  const auto [bounds, scope] = kept_on_resume(journal, given, given_scope, trial_settings, recorded_options, log);
  probe_capabilities(context);
  const auto space = tunable_space(context, tune, scope, journal);
  TuneOutcome outcome{start_report(tune, context, space, strategy_name), kExitOk, "", "", nullptr};
  record_measurement(outcome.report, trial_settings, objectives, tune.measure.tolerance, recorded_options);
  announce_run(context, strategy_name, space.legal_count(), journal.path(), log);

  const SettingsWriter restorer(*context.device);
  RestoreGuard guard(restorer, context.original);
  if (trial_settings.data_in_use) note_data_in_use(outcome.report, space, log);
  TrialRunner runner(*context.device, context.original, trial_settings);
  if (!simulated) runner.watch_uses(log);  // a claim stops no loop device set up over the disk
  ChildExecutor executor(runner, signal_stop);
  PipelineInput input = pipeline_input(space, *strategy, context, bounds, trial_settings, tune.measure.tolerance);
  show_progress_on(input, log);
  const PipelineResult result = run_pipeline(input, journal, executor, log);
  const bool journal_failed = result.stop && result.stop->reason == strategies::StopReason::store_failed;
  if (result.baseline_error) {
    outcome = end_without_baseline(std::move(outcome), *result.baseline_error, journal_failed, result, context.original,
                                   runner, guard, journal);
    hint_resume(outcome, tune, journal, journal_failed);
    outcome.report.wall_s = journal.interrupted_run_s() + seconds_since(wall_start);
    outcome.device = std::move(context.device);  // closed by the caller, after the outputs
    return outcome;
  }
  report_pipeline(outcome, result, context.original);
  note_appeared_uses(outcome.report, runner);
  finish_run(outcome, runner, guard, journal, journal_failed, result.bounds_spent);
  hint_resume(outcome, tune, journal, journal_failed);
  outcome.report.wall_s = journal.interrupted_run_s() + seconds_since(wall_start);
  // The pipeline said it when the search ended, before the round.
  if (outcome.report.completed && !result.budget_left) outcome.report.stop_reason = budget_note(bounds, result.search_trials);
  outcome.device = std::move(context.device);  // closed by the caller, after the outputs
  return outcome;
}

}  // namespace disktune::tuner
