// SPDX-License-Identifier: GPL-2.0-or-later
// TrialSettings: what every trial measures and how long it may take; the detail prefixes of its verdicts.
#pragma once

#include "bench/adaptive.hpp"
#include "bench/benchmark.hpp"
#include "bench/objective.hpp"

#include <functional>
#include <optional>
#include <string_view>

namespace disktune::tuner {

/// What every trial measures and how long it may take.
struct TrialSettings {
  bench::Workload workload;          ///< seq-read's buffered reads (hdparm -t style); duration: every objective's sample time
  bench::SamplingPlan sampling;      ///< adaptive samples per trial (--repeats, --max-repeats)
  probe::Seconds timeout{30.0};      ///< wall time before the trial counts as hung
  /// Run the trial's body in this process instead of a forked watchdog child: the same code
  /// (measure, restore, serialize, parse), without the fork. Only for simulated drives
  /// without hang faults (disktune evaluate): nothing could stop a hung read.
  bool in_process = false;
  int confirm_rounds = 6;            ///< samples per contender in the confirmation round
  /// Longest silence (no read chunk finished, no setting applied) before a trial counts as
  /// hung; nullopt: none for the baseline, then probe::stall_limit_for(time of one chunk at
  /// the baseline's rate).
  std::optional<probe::Seconds> stall;
  /// The device's data is in use (mounted, --allow-mounted): the file system writes to it,
  /// so data checksums are not compared with the baseline's (read errors, the kernel log
  /// and the read-back of every setting remain the evidence).
  bool data_in_use = false;
  /// Derive `timeout` (and, when `stall` is nullopt, the stall limit) from the baseline's
  /// rate (tuner/host/time_limits.hpp) once it is measured; `timeout` is then the first baseline
  /// child's limit. false: `timeout` is --trial-timeout's or a simulated drive's.
  bool derive_limits = false;
  /// Polled while a trial, baseline or confirmation child runs: true = kill it now (a second
  /// stop signal, or the stop grace has passed); TrialRun::stopped (a baseline: errc::operation_canceled)
  /// then says so. Empty: never.
  std::function<bool()> stop_now{};
  /// Baseline children measured after the first one for the noise: each opens the device
  /// anew, as every trial does (strategies::obtain_baseline).
  int noise_repeats = 2;
  /// What every sample measures (tuner/trial/sampler_factory.hpp picks its engine); seq-read by default.
  bench::Objective objective = bench::parse_objective("seq-read", "").value();
  /// The guard objective (`--objective A,B`: B), measured in every trial after `objective`'s
  /// samples with the plan's minimum samples; nullopt: none.
  std::optional<bench::Objective> guard{};
};

/// Detail prefix of a trial whose setting the drive rejected (EIO, ATA status ERR).
inline constexpr std::string_view kRejectedPrefix = "rejected by the device: ";
/// Detail prefix of a trial whose setting was accepted but did not read back as applied.
inline constexpr std::string_view kIneffectivePrefix = "ineffective: ";
/// Detail prefix of a measurement during which a setting of its configuration read back
/// another value than claimed (another process changed it, or the kernel coupled it to a
/// changed one): "settings changed: nr_requests reads back 64 instead of 128 after measuring".
inline constexpr std::string_view kChangedPrefix = "settings changed: ";

/// What a run on data in use (TrialSettings::data_in_use) says about its evidence.
/// The evidence left counts no write: read errors (the trial's own reads), the kernel log's
/// ATA and I/O errors about the device, the read-back of every setting; the progress counter
/// (probe::device_bytes_read) and the in-flight count (probe::reads_in_flight) count reads
/// only. So the file system's writes (disktune's own journal when it lives there) blame no
/// setting; only the ATA knobs could break reads, and they are refused on such a disk
/// (probe::in_use_hazard).
inline constexpr std::string_view kDataInUseNote =
    "data checksum check off: the data is in use (--allow-mounted), so its file system (and disktune's "
    "journal, if it lives there) may write to it during the run; read errors, the kernel log and the "
    "read-back of every setting remain the evidence, and none of them sees the file system's writes";

}  // namespace disktune::tuner
