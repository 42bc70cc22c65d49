// SPDX-License-Identifier: GPL-2.0-or-later
// The trial verdict: a status and detail from the evidence (the child's end, its report, the kernel log, the checksum).
#pragma once

#include "probe/core/clock.hpp"
#include "probe/core/error.hpp"
#include "probe/watch/watchdog.hpp"
#include "strategies/trial.hpp"
#include "tuner/trial/trial_wire.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::tuner {

/// What a killed child's limits were, to say which one fired and how to raise it.
struct LimitNote {
  probe::Seconds timeout{0.0};          ///< the trial time limit
  std::optional<probe::Seconds> stall;  ///< the stall limit (nullopt: none)
  bool derived = false;                 ///< the time limit is from the baseline's rate, not --trial-timeout's
  bool stall_derived = false;           ///< the stall limit is from the baseline's rate, not --stall-timeout's
  std::uint64_t chunk_bytes = 0;        ///< bytes per read chunk (one heartbeat each)
};

/// A trial's result from its child's end. timed_out: slow when the child was still
/// progressing (progress within min(2 s, half the stall limit) and no stall fired; detail
/// "slow: reached about R MiB/s, ..."), else hang ("trial hung: ..."), both naming the limit
/// and the option that raises it; stopped: error with the watchdog's detail; wedged: wedged
/// ("device wedged: ..."); finished with a report (trial_wire): its status, samples (scores),
/// detail, warm-up, sampling stop and measurement time [s], summarized
/// (strategies::summarize_samples) when ok; anything else: error ("trial process failed: ...").
/// The result's settings and id are left for the caller.
strategies::TrialResult verdict_of(const probe::ChildOutcome& outcome, const std::optional<ChildReport>& report,
                                   const LimitNote& limits);

/// The report a child wrote (trial_wire), decoded: nullopt when the child did not finish or
/// its payload does not parse. Decoded once per child: the verdict and the runner's cached
/// figure and checksum come from the same report.
std::optional<ChildReport> child_report(const probe::ChildOutcome& outcome);

/// verdict_of on the report decoded from `outcome` (child_report).
inline strategies::TrialResult verdict_of(const probe::ChildOutcome& outcome, const LimitNote& limits) {
  return verdict_of(outcome, child_report(outcome), limits);
}

/// Any ATA or I/O error the kernel logged about the device during the trial is kept in
/// trial.kernel_log and turns an ok trial unstable (median 0, detail "kernel logged errors
/// during the trial: <the first>").
void add_kernel_log_evidence(strategies::TrialResult& trial, std::vector<std::string> errors);

/// An ok trial whose data checksum `crc` differs from the baseline's turns unstable (median
/// 0, "... (CRC-32 mismatch): corruption"). Nothing when no baseline checksum is known or
/// the data is in use (its file system writes to it: a difference proves nothing).
void check_data_checksum(strategies::TrialResult& trial, std::uint32_t crc, std::optional<std::uint32_t> baseline_crc,
                         bool data_in_use);

/// The trial as wedged: status wedged, median 0, detail "<detail>; <why>: <wedged_detail>".
strategies::TrialResult mark_wedged(strategies::TrialResult trial, std::string_view why,
                                    const std::string& wedged_detail);

/// The error of a baseline that did not end ok: errc::timed_out when it was merely slow (a
/// limit fired, the device is fine), errc::operation_canceled when `stopped` (killed to stop
/// the run), errc::device_or_resource_busy when a setting changed behind disktune's back
/// (op "measure the baseline: read_ahead_kb changed from 128 to 512 during sample 1; ...",
/// baseline_changed_behind), else errc::io_error; op "measure the baseline (<status>: <detail>)".
probe::Error baseline_error(const strategies::TrialResult& trial, const std::string& path, bool stopped = false);

/// True for a baseline_error (of the baseline or a repeat of it) that says a setting changed behind
/// disktune's back while the baseline was measured (baseline_error's errc::device_or_resource_busy):
/// another process is changing the device, which itself is fine.
bool baseline_changed_behind(const probe::Error& error);

}  // namespace disktune::tuner
