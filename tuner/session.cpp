// SPDX-License-Identifier: GPL-2.0-or-later
// The tune session: orchestration only; measuring is TrialRunner's, searching the strategy's.
#include "tuner/session.hpp"

#include "probe/last_close.hpp"
#include "strategies/registry.hpp"
#include "tuner/clock_text.hpp"
#include "tuner/decision.hpp"
#include "tuner/device_context.hpp"
#include "tuner/device_lock.hpp"
#include "tuner/noise.hpp"
#include "tuner/restorer.hpp"
#include "tuner/run_journal.hpp"
#include "tuner/signals.hpp"
#include "tuner/time_limits.hpp"
#include "tuner/trial_runner.hpp"
#include "tuner/trial_verdict.hpp"
#include "tuner/version.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <ostream>

namespace disktune::tuner {
namespace {

using strategies::TrialResult;

// Thrown out of the evaluator's runner to end the search early; caught in run_tune.
struct StopSearch {
  ExitCode code;
  std::string message;
};

constexpr std::uint64_t kChunkBytes = 2u << 20;  // hdparm's read size

// A simulated trial takes milliseconds of wall time (virtual clock). A real one's limit is
// derived from the baseline's rate once it is measured (TrialRunner, time_limits.hpp); this
// is the first baseline child's, bounded by its stall limit per chunk.
bench::Seconds trial_timeout(const Config& config, bool simulated) {
  if (config.trial_timeout_s) return bench::Seconds(*config.trial_timeout_s);
  // Simulated time costs real time too (generating the data read): ~15 ms per virtual second.
  if (simulated) return bench::Seconds(10.0 + 0.05 * (config.max_repeats + 1) * config.duration_s);
  const TrialShape shape{bench::Seconds(config.duration_s), config.repeats, config.max_repeats, kChunkBytes};
  return first_baseline_time_limit(shape, bench::Seconds(config.stall_timeout_s.value_or(kFirstStallS)));
}

TrialSettings trial_settings_for(const Config& config, bool simulated) {
  TrialSettings settings;
  settings.workload = bench::disk_read_workload(bench::Seconds(config.duration_s));
  settings.sampling = bench::SamplingPlan{config.repeats, config.max_repeats, 0.02, true};
  settings.timeout = trial_timeout(config, simulated);
  if (config.stall_timeout_s) settings.stall = bench::Seconds(*config.stall_timeout_s);
  settings.derive_limits = !simulated && !config.trial_timeout_s;
  settings.stop_now = [] { return stop_now(); };
  settings.noise_repeats = config.noise_repeats;
  // A disk in use: its file system writes (our own journal or report may be on it).
  settings.data_in_use = config.allow_mounted;
  return settings;
}

// Wall seconds since `start`.
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The confirmation round, journaled as one unit and announced (it runs for minutes on a
// real device): what it measures, then where its answer came from.
probe::Result<Round> journaled_round(const std::vector<probe::Settings>& contenders, RunJournal& journal,
                                     TrialRunner& runner, const TrialSettings& trial, std::ostream& log,
                                     bool simulated) {
  const double per_sample_s = trial.workload.duration.count();
  char estimate[32];
  std::snprintf(estimate, sizeof estimate, "%.0f", 2.0 * per_sample_s * static_cast<double>(contenders.size()) * trial.confirm_rounds);
  bool measured = false;
  auto round = journal.confirm(contenders, [&](const std::vector<probe::Settings>& c) {
    measured = true;
    log << "disktune: confirmation round: " << c.size() - 1 << " finalists and the baseline x " << trial.confirm_rounds
        << " rounds, interleaved (a warm-up and a kept sample each; about " << estimate << " s of reads)\n";
    // One line per unit, as the search prints one per trial.
    return runner.confirm(c, [&](const ConfirmUnit& unit) {
      log << confirm_progress_line(unit, c[unit.contender], c.front(), simulated) << '\n' << std::flush;
    });
  });
  if (round && !round->skipped.empty()) log << "disktune: confirmation round " << round->skipped << '\n';
  else if (round && !measured) log << "disktune: confirmation round: taken from the journal\n";
  else if (round) log << "disktune: confirmation round done\n";
  return round;
}

void log_trial(std::ostream& log, const TrialResult& trial, const probe::Settings& original, bool simulated) {
  char figure[64];
  std::snprintf(figure, sizeof figure, "%8.2f MB/s ±%4.1f%%", trial.median_mib_s, trial.spread_pct);
  log << (simulated ? "  [SIMULATED] trial " : "  trial ") << trial.id << ": " << to_string(trial.status) << "  "
      << (trial.status == strategies::TrialStatus::ok ? figure : "") << "  "
      << probe::format_settings(strategies::changes_from(original, trial.settings))
      << (trial.detail.empty() ? "" : "  (" + trial.detail + ")") << '\n';
}

results::Report start_report(const Config& config, const DeviceContext& context,
                             const strategies::SearchSpace& space, const std::string& strategy) {
  results::Report report;
  report.tool_version = std::string(tool_version());
  report.kernel = kernel_release();
  report.started_at = utc_timestamp();
  report.strategy = strategy;
  report.repeats = config.repeats;
  report.max_repeats = config.max_repeats;
  report.seed = config.seed;
  report.device = describe_device(context);
  report.identify = context.identify;
  report.space = describe_space(space);
  return report;
}

// The trial the answer is quoted against: the confirmation round's baseline when that round
// measured it (the rule of results::answer_baseline), else the search's.
const TrialResult& reference_trial(const std::optional<results::ConfirmationRound>& round,
                                   const TrialResult& search_baseline) {
  if (!round || round->results.empty()) return search_baseline;
  const TrialResult& base = round->results.front();
  return base.status == strategies::TrialStatus::ok && base.median_mib_s > 0.0 ? base : search_baseline;
}

// The winner's figures and its speedup come from one source, `reference`'s: keeping the
// baseline quotes the reference itself (speedup 1).
results::Winner describe_winner(const TrialResult& best, const TrialResult& reference,
                                const probe::Settings& original) {
  const bool keep = best.id == 0;
  const TrialResult& figures = keep ? reference : best;
  results::Winner winner;
  winner.ci_low_mib_s = figures.ci_low_mib_s;
  winner.ci_high_mib_s = figures.ci_high_mib_s;
  winner.settings = keep ? original : best.settings;
  winner.changes = strategies::changes_from(original, winner.settings);
  winner.median_mib_s = figures.median_mib_s;
  winner.spread_pct = figures.spread_pct;
  winner.trial_id = best.id;
  winner.keep_baseline = keep;
  winner.speedup = !keep && reference.median_mib_s > 0 ? best.median_mib_s / reference.median_mib_s : 1.0;
  return winner;
}

results::ConfirmationRound describe_confirmation(const strategies::Confirmation& round, int rounds) {
  results::ConfirmationRound described;
  described.rounds = rounds;
  described.results = round.results;
  described.winner_trial_id = round.results[round.winner].id;
  return described;
}

probe::Result<strategies::Baseline> measure_or_resume_baseline(TrialRunner& runner, RunJournal& journal) {
  if (auto saved = journal.saved_baseline()) {
    runner.adopt_baseline(*saved);
    return *saved;
  }
  auto measured = runner.measure_baseline();
  if (measured) journal.record_baseline(*measured);
  return measured;
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

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

// Why a completed search stopped short of its strategy's end.
std::string budget_note(const Config& config, const strategies::Evaluator& evaluator) {
  const std::string spent = config.max_trials && evaluator.trials().size() >= *config.max_trials
                                ? "--max-trials " + std::to_string(*config.max_trials)
                                : "--time-budget " + seconds_text(config.time_budget_s.value_or(0.0)) + " s";
  return "search budget spent (" + spent + ") after " + std::to_string(evaluator.trials().size()) +
         " trials: the answer is the best of what was measured";
}

// Confirmation rounds never go below this, whatever the budget.
constexpr int kMinConfirmRounds = 3;
// Contenders of a confirmation round at most: the baseline and 3 finalists (decide()).
constexpr int kMaxContenders = 4;

// Measurement seconds of one sample, from the baseline's (its warm-up included).
double seconds_per_sample(const TrialResult& baseline) {
  const auto samples = baseline.samples_mib_s.size() + (baseline.warmup_mib_s > 0.0 ? 1 : 0);
  return samples > 0 ? baseline.measured_s / static_cast<double>(samples) : 0.0;
}

// A confirmation round of `rounds` rounds: every contender takes a warm-up and a kept sample.
double confirmation_cost_s(int rounds, double sample_s) { return rounds * kMaxContenders * 2.0 * sample_s; }

// As many rounds (at most `rounds`, at least kMinConfirmRounds) as `left_s` seconds hold.
int confirm_rounds_within(double left_s, double sample_s, int rounds) {
  const double per_round = confirmation_cost_s(1, sample_s);
  if (per_round <= 0.0) return rounds;
  return std::clamp(static_cast<int>(left_s / per_round), kMinConfirmRounds, rounds);
}

// The end of every run that got to measuring: restore (from a watched child: after a hung
// trial a restore from here could block), then the outcome's last fields.
void finish_run(TuneOutcome& outcome, TrialRunner& runner, RestoreGuard& guard, RunJournal& journal,
                bool journal_failed = false) {
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
  if (outcome.exit_code != kExitPartial && outcome.exit_code != kExitWedged && !journal_failed)
    journal.finish(outcome.report.restored);
}

// What to do about a baseline another process disturbed (baseline_changed_behind).
std::string concurrent_change_message(const probe::Error& error) {
  return "stopped: another process changed a setting of " + error.path + " while its baseline was measured (" +
         error.op.substr(error.op.find(": ") + 2) +
         "); the baseline cannot be trusted. Stop whatever changes it (a udev rule, tuned, a script, another "
         "tuner) and run disktune tune again (it resumes); the original settings are restored";
}

}  // namespace

TuneOutcome run_tune(const Config& config, std::ostream& log) {
  const auto wall_start = std::chrono::steady_clock::now();
  const std::string strategy_name = config.strategy.empty() ? strategies::default_strategy_name() : config.strategy;
  auto strategy = strategies::make_strategy(strategy_name);
  if (!strategy) throw RunError(kExitUsage, strategy.error().op);
  install_stop_handlers();  // before anything is opened: a stop request is always handled
  refuse_device_in_use(config);
  const DeviceLock lock(config.from_file ? "sim:" : config.device);
  DeviceContext context = open_device_unprobed(config, log);
  const bool simulated = context.device->simulated();
  const TrialSettings trial_settings = trial_settings_for(config, simulated);
  const auto recorded_options = measurement_options(config, strategy_name, trial_settings);
  // Record before you probe: the original settings are durable in the journal before the
  // capability probe writes trial values (issue 9 item 10). May restore and adopt a crashed
  // run's original settings.
  RunJournal journal(config, context, recorded_options, log);
  probe_capabilities(context);
  const auto space = plan_space(context, config);
  TuneOutcome outcome{start_report(config, context, space, strategy_name), kExitOk, ""};
  outcome.report.options = recorded_options;
  log << "disktune: tuning " << (simulated ? "SIMULATED drive " : "") << context.device->path()
      << (context.identify ? " (" + context.identify->model + ")" : "") << " with " << strategy_name << ", "
      << space.legal_count() << " legal configurations; journal " << journal.path() << '\n';
  if (!context.identify_note.empty()) log << "  block-layer tuning only: " << context.identify_note << '\n';

  const Restorer restorer(*context.device);
  RestoreGuard guard(restorer, context.original);
  if (trial_settings.data_in_use) {
    outcome.report.integrity_note = std::string(kDataInUseNote);
    log << "  " << kDataInUseNote << '\n';
  }
  TrialRunner runner(*context.device, context.original, trial_settings);
  const bool resumed_baseline = journal.saved_baseline().has_value();
  auto measured = measure_or_resume_baseline(runner, journal);
  if (!measured && measured.error().code == std::errc::operation_canceled) {  // a second signal (or the grace)
    outcome.exit_code = kExitPartial;
    outcome.message = stop_message(stop_requested());
    outcome.report.winner.settings = context.original;
    outcome.report.winner.keep_baseline = true;
    finish_run(outcome, runner, guard, journal);
    outcome.report.wall_s = seconds_since(wall_start);
    return outcome;
  }
  // Another process changed a setting while the baseline was measured: the device is fine
  // (no read check); restore, report, exit 1, the journal left to resume.
  auto stop_for_change = [&](const probe::Error& error) {
    outcome.exit_code = kExitPartial;
    outcome.message = concurrent_change_message(error);
    outcome.report.winner.settings = context.original;
    outcome.report.winner.keep_baseline = true;
    finish_run(outcome, runner, guard, journal);
    outcome.report.wall_s = seconds_since(wall_start);
    return outcome;
  };
  if (!measured && baseline_changed_behind(measured.error())) return stop_for_change(measured.error());
  if (!measured) {
    // A hung read can leave requests in flight that a restore from here would wait on.
    guard.dismiss();
    auto restored = runner.health().wedged() ? probe::Result<void>{} : runner.restore_watched();
    // Reads a killed child left in flight would make this process's last close of the
    // device wait for ever: the read check (in a child) finds such a device wedged. A
    // baseline that was merely slow (errc::timed_out) says nothing about the device.
    if (restored && !runner.health().wedged() && measured.error().code != std::errc::timed_out)
      restored = runner.verify_readable();
    if (!runner.health().wedged())
      throw RunError(kExitDevice, measured.error().message() +
                                      (restored ? "" : "; could not restore: " + restored.error().message()));
    outcome.report.winner.settings = context.original;
    outcome.report.winner.keep_baseline = true;
    finish_run(outcome, runner, guard, journal);
    outcome.report.wall_s = seconds_since(wall_start);
    return outcome;
  }
  strategies::Baseline& baseline = *measured;
  log_trial(log, baseline.trial, context.original, simulated);
  log << "  noise between " << baseline.aa_samples_mib_s.size() << " baseline trials: " << baseline.noise_floor_pct
      << " %\n";
  constexpr double kMinGain = strategies::EvaluatorOptions{}.min_gain;
  const NoiseCheck noise = settle_noise(runner, baseline, resumed_baseline, 100.0 * kMinGain, log);
  if (noise.changed_behind) return stop_for_change(*noise.changed_behind);
  outcome.report.baseline = baseline;
  outcome.report.noise_floor_pct = baseline.noise_floor_pct;
  outcome.report.noise_detail = noise.detail;
  const double before_search_s = (resumed_baseline ? baseline.trial.measured_s : baseline.measured_s) + noise.measured_s;

  strategies::EvaluatorOptions options;
  options.max_trials = config.max_trials;
  options.time_budget_s = config.time_budget_s;
  options.noise_floor = baseline.noise_floor_pct / 100.0;
  options.spent_before_s = before_search_s;
  const double sample_s = seconds_per_sample(baseline.trial);
  options.reserve_s = confirmation_cost_s(kMinConfirmRounds, sample_s);
  std::optional<TrialResult> wedged_trial;  // the evaluator never sees it: the search stops
  bool journal_failed = false;              // then the journal is not written again
  strategies::Evaluator evaluator(
      space,
      strategies::Evaluator::RequestRunner([&](const probe::Settings& candidate, const strategies::TrialRequest& request) {
        if (const int signal = stop_requested()) throw StopSearch{kExitPartial, stop_message(signal)};
        auto measure = [&](const probe::Settings& config_to_measure) {
          auto ran = runner.run(config_to_measure, request);
          if (!ran.result)
            throw StopSearch{ran.health.unreadable() ? kExitDevice : kExitRestoreFailed, ran.result.error().message()};
          // Killed to stop the run: no result is recorded (the journal runs it again on resume).
          if (ran.stopped) throw StopSearch{kExitPartial, stop_message(stop_requested())};
          return *ran.result;
        };
        TrialResult trial;
        try {
          trial = journal.run(candidate, request.quick, measure);
        } catch (const RunError& error) {
          // A journal write failed (disk full): stop like any other stop, restore, report.
          journal_failed = true;
          throw StopSearch{error.code(), error.what()};
        }
        // Wedged here and now (a journal's wedged trial from an earlier run is just a failure).
        if (runner.health().wedged()) {
          wedged_trial = trial;
          throw StopSearch{kExitWedged, "device wedged"};
        }
        return trial;
      }),
      baseline.trial, options);
  evaluator.set_observer([&](const TrialResult& trial) { log_trial(log, trial, context.original, simulated); });
  if (space.groups().empty())
    log << "disktune: nothing to tune on " << context.device->path()
        << ": every setting is unsupported, read-only or not selected (see 'disktune plan')\n";
  try {
    (*strategy)->run(space, evaluator);
  } catch (const StopSearch& stop) {
    outcome.exit_code = stop.code;
    outcome.message = stop.message;
  }

  outcome.report.trials.assign(evaluator.trials().begin(), evaluator.trials().end());
  if (wedged_trial) {
    wedged_trial->id = static_cast<int>(outcome.report.trials.size()) + 1;
    log_trial(log, *wedged_trial, context.original, simulated);
    outcome.report.trials.push_back(*wedged_trial);
  }
  outcome.report.measured_s = before_search_s + evaluator.measured_s();
  TrialResult best = evaluator.best();
  if (outcome.exit_code == kExitOk) {
    if (config.time_budget_s)
      runner.set_confirm_rounds(confirm_rounds_within(*config.time_budget_s - outcome.report.measured_s, sample_s,
                                                      trial_settings.confirm_rounds));
    auto decision = decide(evaluator, [&](const std::vector<probe::Settings>& contenders) {
      return journaled_round(contenders, journal, runner, runner.settings(), log, simulated);
    });
    if (!decision) {
      outcome.exit_code = runner.health().wedged() ? kExitWedged : kExitRestoreFailed;
      outcome.message = decision.error().message();
    } else {
      best = decision->winner;
      outcome.report.confirmation_skipped = decision->round_skipped;
      if (decision->confirmation) {
        outcome.report.confirmation = describe_confirmation(*decision->confirmation, runner.settings().confirm_rounds);
        for (const auto& result : decision->confirmation->results) outcome.report.measured_s += result.measured_s;
      }
    }
    if (const int signal = stop_requested()) {  // asked to stop during the confirmation round
      best = evaluator.baseline();
      outcome.report.confirmation.reset();
      outcome.exit_code = kExitPartial;
      outcome.message = stop_message(signal);
    }
  }
  if (outcome.exit_code == kExitOk && best.id == 0 && !noise.resolvable) {
    outcome.report.too_noisy = true;
    outcome.exit_code = kExitTooNoisy;
    outcome.message = "too noisy for an answer: no configuration beat the noise; " + noise.detail;
  }
  const TrialResult& reference = reference_trial(outcome.report.confirmation, baseline.trial);
  outcome.report.winner = describe_winner(best, reference, context.original);
  outcome.report.winner.confirmed = outcome.report.confirmation.has_value();
  finish_run(outcome, runner, guard, journal, journal_failed);
  outcome.report.wall_s = seconds_since(wall_start);
  if (outcome.report.completed && !evaluator.budget_left()) {
    outcome.report.stop_reason = budget_note(config, evaluator);
    log << "disktune: " << outcome.report.stop_reason << '\n';
  }
  return outcome;
}

}  // namespace disktune::tuner
