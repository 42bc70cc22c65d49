// SPDX-License-Identifier: GPL-2.0-or-later
// The trial verdict: a status and detail from a child's end, its report, the kernel log and the checksum.
#include "tuner/trial/trial_verdict.hpp"

#include "strategies/evaluator.hpp"
#include "tuner/trial/trial_settings.hpp"
#include "tuner/trial/trial_wire.hpp"

#include <algorithm>
#include <cstdio>

namespace disktune::tuner {
namespace {

using strategies::TrialResult;
using strategies::TrialStatus;

std::string rate_text(double mib_s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g MiB/s", mib_s);
  return text;
}

// The rate a killed child reached: the device's sectors read, else one chunk per heartbeat.
double reached_mib_s(const probe::ChildOutcome& outcome, std::uint64_t chunk_bytes) {
  const double seconds = std::max(outcome.elapsed.count(), 1e-3);
  const double bytes = outcome.progress > 0 ? static_cast<double>(outcome.progress)
                                            : static_cast<double>(outcome.heartbeats) * static_cast<double>(chunk_bytes);
  return bytes / seconds / (1024.0 * 1024.0);
}

// A child killed at its time limit while still progressing is slow; one that stopped
// progressing (the stall limit fired, or silent for 2 s, half the stall limit if shorter,
// when the time limit fired) hung.
TrialResult killed_trial(const probe::ChildOutcome& outcome, const LimitNote& limits) {
  TrialResult trial;
  const std::string origin = limits.derived ? "derived from the baseline's rate" : "as given or the default";
  const std::string stall_origin = limits.stall_derived ? "derived from the baseline's rate" : "as given";
  // Progress shows every 10-200 ms while a child reads (heartbeats, the device's sectors).
  const probe::Seconds recent = std::min(probe::Seconds{2.0}, limits.stall.value_or(probe::Seconds{4.0}) / 2.0);
  const bool progressing = !outcome.stalled && outcome.since_progress < recent;
  if (progressing) {
    trial.status = TrialStatus::slow;
    trial.detail = "slow: reached about " + rate_text(reached_mib_s(outcome, limits.chunk_bytes)) +
                   ", still reading when the trial time limit fired (" + outcome.detail + "; " + origin +
                   "; raise it with --trial-timeout S)";
    return trial;
  }
  trial.status = TrialStatus::hang;
  trial.detail = "trial hung: " + outcome.detail +
                 (outcome.stalled ? " (the stall limit, " + stall_origin + "; raise it with --stall-timeout S)"
                                  : " (the trial time limit, " + origin + "; raise it with --trial-timeout S)");
  return trial;
}

}  // namespace

std::optional<ChildReport> child_report(const probe::ChildOutcome& outcome) {
  return outcome.end == probe::ChildEnd::finished ? deserialize(outcome.payload) : std::nullopt;
}

TrialResult verdict_of(const probe::ChildOutcome& outcome, const std::optional<ChildReport>& report,
                       const LimitNote& limits) {
  if (outcome.end == probe::ChildEnd::timed_out) return killed_trial(outcome, limits);
  TrialResult trial;
  if (outcome.end == probe::ChildEnd::stopped) {
    trial.status = TrialStatus::error;
    trial.detail = outcome.detail;
    return trial;
  }
  if (outcome.end == probe::ChildEnd::wedged) {
    trial.status = TrialStatus::wedged;
    trial.detail = "device wedged: " + outcome.detail;
    return trial;
  }
  if (!report || outcome.end != probe::ChildEnd::finished) {
    trial.status = TrialStatus::error;
    trial.detail = "trial process failed: " + outcome.detail;
    return trial;
  }
  trial = report->trial;
  if (trial.status == TrialStatus::ok) strategies::summarize_samples(trial);
  return trial;
}

void add_kernel_log_evidence(TrialResult& trial, std::vector<std::string> errors) {
  if (errors.empty()) return;
  trial.kernel_log = std::move(errors);
  if (trial.status != TrialStatus::ok) return;
  trial.status = TrialStatus::unstable;
  trial.median = 0.0;
  trial.detail = "kernel logged errors during the trial: " + trial.kernel_log.front();
}

void check_data_checksum(TrialResult& trial, std::uint32_t crc, std::optional<std::uint32_t> baseline_crc,
                         bool data_in_use) {
  if (trial.status != TrialStatus::ok || !baseline_crc || data_in_use || crc == *baseline_crc) return;
  trial.status = TrialStatus::unstable;
  trial.detail = "data read under this configuration differs from the baseline (CRC-32 mismatch): corruption";
  trial.median = 0.0;
}

TrialResult mark_wedged(TrialResult trial, std::string_view why, const std::string& wedged_detail) {
  trial.status = TrialStatus::wedged;
  trial.detail = (trial.detail.empty() ? "" : trial.detail + "; ") + std::string(why) + ": " + wedged_detail;
  trial.median = 0.0;
  return trial;
}

probe::Error baseline_error(const TrialResult& trial, const std::string& path, bool stopped) {
  if (!stopped && trial.status == TrialStatus::unstable && trial.detail.starts_with(kChangedPrefix))
    return probe::Error{std::make_error_code(std::errc::device_or_resource_busy),
                        "measure the baseline: " + trial.detail.substr(kChangedPrefix.size()), path};
  const auto code = stopped                               ? std::errc::operation_canceled
                    : trial.status == TrialStatus::slow ? std::errc::timed_out
                                                        : std::errc::io_error;
  return probe::Error{std::make_error_code(code),
                      "measure the baseline (" + std::string(to_string(trial.status)) + ": " + trial.detail + ")", path};
}

bool baseline_changed_behind(const probe::Error& error) {
  return error.code == std::errc::device_or_resource_busy;
}

}  // namespace disktune::tuner
