// SPDX-License-Identifier: GPL-2.0-or-later
// The tune session: orchestration only; measuring is TrialRunner's, searching the strategy's.
#include "tuner/session.hpp"

#include "probe/settings_guard.hpp"
#include "strategies/registry.hpp"
#include "tuner/clock_text.hpp"
#include "tuner/device_context.hpp"
#include "tuner/signals.hpp"
#include "tuner/trial_runner.hpp"
#include "tuner/version.hpp"

#include <cstdio>
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

// A simulated trial takes milliseconds of wall time (virtual clock); a real one about
// repeats x (duration + flush) plus the integrity reads.
bench::Seconds trial_timeout(const Config& config, bool simulated) {
  if (config.trial_timeout_s) return bench::Seconds(*config.trial_timeout_s);
  if (simulated) return bench::Seconds(10.0);
  const double expected = config.repeats * (config.duration_s + 2.5) + 5.0;
  return bench::Seconds(2.0 * expected + 10.0);
}

std::optional<bench::Seconds> stall_timeout(const Config& config) {
  if (config.stall_timeout_s) return bench::Seconds(*config.stall_timeout_s);
  return std::nullopt;  // TrialRunner derives it from the baseline's rate
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
  report.seed = config.seed;
  report.device = describe_device(context);
  report.identify = context.identify;
  report.space = describe_space(space);
  return report;
}

results::Winner describe_winner(const TrialResult& best, const TrialResult& baseline,
                                const probe::Settings& original) {
  results::Winner winner;
  winner.settings = best.settings;
  winner.changes = strategies::changes_from(original, best.settings);
  winner.median_mib_s = best.median_mib_s;
  winner.spread_pct = best.spread_pct;
  winner.trial_id = best.id;
  winner.keep_baseline = best.id == 0;
  winner.speedup = baseline.median_mib_s > 0 ? best.median_mib_s / baseline.median_mib_s : 1.0;
  return winner;
}

// A wedged device: no restore from this process (it could block as the trial did); one
// attempt from a watched child unless a restore child already wedged; then exit 5.
void end_wedged(TuneOutcome& outcome, TrialRunner& runner, probe::SettingsGuard& guard, const std::string& where) {
  guard.dismiss();
  results::Report& report = outcome.report;
  report.wedged = true;
  report.wedged_detail = where + ": " + runner.wedged_detail();
  if (runner.restore_blocks()) {
    report.restore_detail = "not attempted: restoring blocks on this device";
  } else if (const auto restored = runner.restore_watched()) {
    report.restored = true;
  } else {
    report.restore_detail = restored.error().message();
  }
  report.finished_at = utc_timestamp();
  outcome.exit_code = kExitWedged;
  outcome.message = "device " + report.device.path + " is wedged (" + report.wedged_detail +
                    "); stopped, no further trial touches it; " +
                    (report.restored ? "original settings restored from a watched child"
                                     : "original settings NOT restored (" + report.restore_detail +
                                           "): restore them once the device recovers");
}

}  // namespace

TuneOutcome run_tune(const Config& config, std::ostream& log) {
  const std::string strategy_name = config.strategy.empty() ? strategies::default_strategy_name() : config.strategy;
  auto strategy = strategies::make_strategy(strategy_name);
  if (!strategy) throw RunError(kExitUsage, strategy.error().op);
  DeviceContext context = open_device(config);
  const auto space = plan_space(context, config);
  TuneOutcome outcome{start_report(config, context, space, strategy_name), kExitOk, ""};
  const bool simulated = context.device->simulated();
  log << "disktune: tuning " << (simulated ? "SIMULATED drive " : "") << context.device->path()
      << (context.identify ? " (" + context.identify->model + ")" : "") << " with " << strategy_name << ", "
      << space.legal_count() << " legal configurations\n";

  install_stop_handlers();
  probe::SettingsGuard guard(*context.device, context.original);
  TrialRunner runner(*context.device, context.original,
                     {bench::Workload{bench::Method::buffered, 0, 2u << 20, bench::Seconds(config.duration_s)},
                      config.repeats, trial_timeout(config, simulated), stall_timeout(config)});
  auto baseline = runner.measure_baseline();
  if (!baseline) {
    // A hung read can leave requests in flight that a restore would wait on: never restore
    // from this process here, only from a watched child.
    guard.dismiss();
    const auto restored = runner.wedged_detail().empty() ? runner.restore_watched() : probe::Result<void>{};
    if (!runner.wedged_detail().empty()) {
      outcome.report.winner.settings = context.original;
      outcome.report.winner.keep_baseline = true;
      end_wedged(outcome, runner, guard, baseline.error().op);
      return outcome;
    }
    throw RunError(kExitDevice, baseline.error().message() +
                                    (restored ? "" : "; could not restore: " + restored.error().message()));
  }
  outcome.report.baseline = {context.original, baseline->trial.samples_mib_s, baseline->trial.median_mib_s,
                             baseline->trial.spread_pct, baseline->cached_median_mib_s};
  log_trial(log, baseline->trial, context.original, simulated);

  std::optional<TrialResult> wedged_trial;  // evaluators never see it: the search stops
  strategies::Evaluator evaluator(
      space,
      [&](const probe::Settings& candidate) {
        if (const int signal = stop_requested())
          throw StopSearch{kExitPartial, "stopped by signal " + std::to_string(signal)};
        auto trial = runner.run(candidate);
        if (!trial) throw StopSearch{kExitRestoreFailed, trial.error().message()};
        if (trial->status == strategies::TrialStatus::wedged) {
          wedged_trial = *trial;
          throw StopSearch{kExitWedged, "trial " + probe::format_settings(candidate)};
        }
        return *trial;
      },
      baseline->trial, {config.max_trials});
  evaluator.set_observer([&](const TrialResult& trial) { log_trial(log, trial, context.original, simulated); });
  try {
    (*strategy)->run(space, evaluator);
  } catch (const StopSearch& stop) {
    outcome.exit_code = stop.code;
    outcome.message = stop.message;
  }

  outcome.report.trials = evaluator.trials();
  outcome.report.winner = describe_winner(evaluator.best(), baseline->trial, context.original);
  if (wedged_trial) {
    wedged_trial->id = static_cast<int>(outcome.report.trials.size()) + 1;
    log_trial(log, *wedged_trial, context.original, simulated);
    outcome.report.trials.push_back(*wedged_trial);
    end_wedged(outcome, runner, guard, "trial " + std::to_string(wedged_trial->id));
    return outcome;
  }
  auto restored = guard.restore();
  outcome.report.restored = static_cast<bool>(restored);
  if (!restored) {
    outcome.report.restore_detail = restored.error().message();
    outcome.exit_code = kExitRestoreFailed;
    outcome.message = "could not restore the original settings: " + restored.error().message();
  }
  outcome.report.finished_at = utc_timestamp();
  return outcome;
}

}  // namespace disktune::tuner
