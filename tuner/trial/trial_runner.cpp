// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner: runs the trial child's body under the watchdog, restores, and keeps the device's health.
#include "tuner/trial/trial_runner.hpp"

#include "bench/stats.hpp"
#include "probe/linux/device_names.hpp"
#include "probe/watch/device_progress.hpp"
#include "probe/watch/device_usage.hpp"
#include "probe/watch/in_flight.hpp"
#include "probe/watch/watchdog.hpp"
#include "strategies/evaluator.hpp"
#include "tuner/host/time_limits.hpp"
#include "tuner/trial/trial_child.hpp"
#include "tuner/trial/trial_verdict.hpp"
#include "tuner/trial/trial_wire.hpp"

#include <algorithm>
#include <vector>

namespace disktune::tuner {

using strategies::TrialResult;
using strategies::TrialStatus;

TrialRunner::TrialRunner(probe::Device& device, probe::Settings original, TrialSettings settings,
                         std::unique_ptr<KernelErrors> kernel_errors)
    : device_(device),
      original_(std::move(original)),
      settings_(settings),
      restorer_(device, settings.in_process),
      stall_(settings.stall),
      kernel_errors_(kernel_errors ? std::move(kernel_errors) : kernel_errors_of(device)) {}

probe::ChildOutcome TrialRunner::run_body(const std::function<std::string(probe::Heartbeat&)>& body,
                                          probe::Seconds timeout, bool stoppable) {
  if (!settings_.in_process) {
    probe::WatchHooks hooks;
    if (stoppable) hooks.stop_now = settings_.stop_now;
    // A real device's sectors read count as progress: one slow read() is not a stall.
    if (!device_.simulated())
      hooks.progress = [name = probe::kernel_name(device_.held().path)] { return probe::device_bytes_read(name); };
    auto outcome = probe::run_in_child(body, probe::WatchLimits{timeout, stall_, probe::Seconds{2.0}, true}, hooks);
    if (outcome.end == probe::ChildEnd::timed_out && !device_.simulated()) check_reads_drained(outcome);
    return outcome;
  }
  probe::ChildOutcome outcome;  // the same body, run here: simulated drives only (evaluate)
  probe::Heartbeat unwatched;
  outcome.end = probe::ChildEnd::finished;
  outcome.exit_code = 0;
  outcome.payload = body(unwatched);
  return outcome;
}

TrialResult TrialRunner::result_of(const probe::ChildOutcome& outcome, const std::optional<ChildReport>& report) const {
  return verdict_of(outcome, report, LimitNote{settings_.timeout, stall_, settings_.derive_limits,
                                       !settings_.stall.has_value(), settings_.workload.chunk_bytes});
}

// A killed reader's requests stay queued until the device answers; if they never drain,
// the device is wedged even though the child itself is gone.
void TrialRunner::check_reads_drained(probe::ChildOutcome& outcome) const {
  const long stuck = probe::reads_stuck_in_flight(probe::kernel_name(device_.held().path), probe::Seconds{2.0});
  if (stuck == 0) return;
  outcome.end = probe::ChildEnd::wedged;
  outcome.detail += "; " + std::to_string(stuck) + " read(s) of " + device_.path() +
                    " still in flight 2 s after the child was killed: the device no longer completes reads";
}

TrialRunner::ChildRun TrialRunner::run_child(const TrialPlan& plan) {
  const auto changes = strategies::changes_from(original_, plan.config);
  const auto outcome = run_body(
      [&](probe::Heartbeat& heartbeat) {
        const ChildReport report = measure_trial(device_, original_, plan, settings_, heartbeat);
        (void)restorer_.restore_here(original_);  // the parent restores again and checks
        return serialize(report);
      },
      settings_.timeout);
  health_.note_child(outcome.end, changes.empty() ? "baseline" : "trial " + probe::format_settings(changes), outcome.detail);
  const auto report = child_report(outcome);
  ChildRun run{result_of(outcome, report), 0.0, 0, outcome.end == probe::ChildEnd::stopped};
  run.trial.settings = plan.config;
  if (report) {
    run.cached_mib_s = report->cached_median_mib_s;
    run.crc = report->data_crc32;
  }
  return run;
}

// The trial's child with the parent's evidence: the kernel log over its span, and the data
// checksum against the baseline's unless the trial reads the reference itself.
TrialRunner::ChildRun TrialRunner::watched_child(const TrialPlan& plan) {
  kernel_errors_->start();
  ChildRun child = run_child(plan);
  add_kernel_log_evidence(child.trial, kernel_errors_->new_errors());
  // On data in use the file system writes too: a checksum difference proves nothing.
  if (child.trial.status != TrialStatus::wedged && plan.compare_checksum)
    check_data_checksum(child.trial, child.crc, baseline_crc_, settings_.data_in_use);
  return child;
}

void TrialRunner::limits_from_rate(double rate_mib_s) {
  const TrialShape shape{settings_.workload.duration, settings_.sampling.min_samples, settings_.sampling.max_samples,
                         settings_.workload.chunk_bytes};
  if (settings_.derive_limits) settings_.timeout = trial_time_limit(shape, rate_mib_s, false);
  // A chunk takes chunk/rate seconds at the baseline's rate; far longer silence is a stall.
  if (!settings_.stall) {
    const double chunk_mib = static_cast<double>(settings_.workload.chunk_bytes) / (1024.0 * 1024.0);
    stall_ = probe::stall_limit_for(probe::Seconds(chunk_mib / rate_mib_s), settings_.timeout);
  }
}

void TrialRunner::adopt_baseline(const strategies::Baseline& baseline) {
  baseline_crc_ = baseline.data_crc32;
  if (baseline.trial.median > 0.0) limits_from_rate(baseline.trial.median);
}

TrialRun TrialRunner::run(const probe::Settings& config, const strategies::TrialRequest& request) {
  // Before any rate is known, a stall is a long silence of the device itself.
  if (request.kind == strategies::TrialKind::baseline && settings_.derive_limits && !settings_.stall)
    stall_ = probe::Seconds(kFirstStallS);
  ChildRun child = watched_child(plan_of(config, settings_, request));
  TrialRun ran{TrialResult{}, child.stopped, {}, child.cached_mib_s, child.crc};
  ran.result = after_trial(std::move(child));
  note_new_uses();
  ran.health = health_;
  return ran;
}

// Without the exclusive open: the run's own claim would read as a use, and one that goes
// away (a stacked loop device detached) would bring it back as new.
std::vector<std::string> TrialRunner::watched_uses() const {
  return probe::device_uses(probe::kernel_name(device_.held().path), "/sys", "/proc", false);
}

void TrialRunner::watch_uses(std::ostream& log) {
  uses_log_ = &log;
  uses_ = watched_uses();
}

void TrialRunner::note_new_uses() {
  if (uses_log_ == nullptr) return;
  const auto now = watched_uses();
  for (const auto& use : probe::new_uses(uses_, now)) {
    appeared_.push_back(use + " (appeared during the run)");
    *uses_log_ << "  note: " << appeared_.back() << '\n';
  }
  uses_ = now;
}

// A wedged trial is left alone (a restore from here could block too); any other is
// restored, and one that did not end ok (and was not stopped) is checked to still read.
probe::Result<TrialResult> TrialRunner::after_trial(ChildRun child) {
  TrialResult& trial = child.trial;
  if (trial.status == TrialStatus::wedged) return trial;
  if (auto restored = restore_watched(); !restored) {
    if (!health_.wedged()) return restored.error();
    return mark_wedged(std::move(trial), "device wedged after the trial", health_.wedged_detail());
  }
  if (child.stopped || trial.status == TrialStatus::ok) return trial;  // stopped: the device is not at fault
  if (auto readable = verify_readable(); !readable) {
    if (health_.wedged()) return mark_wedged(std::move(trial), "device wedged after the trial", health_.wedged_detail());
    health_.note_unreadable();
    return readable.error();
  }
  return trial;
}

probe::Result<void> TrialRunner::restore_watched() {
  // Writing a handful of settings takes milliseconds; 10 s (or the stall limit) is a hang.
  const probe::Seconds limit = std::min(settings_.timeout, std::max(kRestoreLimit, stall_.value_or(probe::Seconds{0.0})));
  auto restored = restorer_.restore(original_, limit);
  health_.note_restore(restored.end, restored.detail);
  return std::move(restored.done);
}

// In a watchdog child: a drive wedged by the trial could block this read for ever.
probe::Result<void> TrialRunner::verify_readable() {
  const auto outcome = run_body(
      [this](probe::Heartbeat&) { return read_first_block(device_); },
      settings_.timeout, false);
  if (outcome.end == probe::ChildEnd::finished && outcome.payload.empty()) return {};
  health_.note_child(outcome.end, "read check after the restore", outcome.detail);
  const std::string why = outcome.end == probe::ChildEnd::finished ? outcome.payload : outcome.detail;
  return probe::Error{std::make_error_code(std::errc::io_error),
                      "read a block after restoring the original settings (" + why +
                          "); the device may need a reset",
                      device_.path()};
}

}  // namespace disktune::tuner
