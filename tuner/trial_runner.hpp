// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner: one configuration applied, read back, measured and checked inside a watchdog child.
#pragma once

#include "bench/benchmark.hpp"
#include "probe/device.hpp"
#include "probe/watchdog.hpp"
#include "strategies/trial.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace disktune::tuner {

/// What every trial measures and how long it may take.
struct TrialSettings {
  bench::Workload workload;          ///< buffered reads (hdparm -t style)
  int repeats = 3;                   ///< samples per trial
  bench::Seconds timeout{30.0};      ///< wall time before the trial counts as hung
  /// Longest silence (no read chunk finished) before the trial counts as hung; nullopt:
  /// none for the baseline, then probe::stall_limit_for(time of one chunk at the baseline's rate).
  std::optional<bench::Seconds> stall;
};

/// The baseline's figures: its trial, a cached-read figure and the data checksum that
/// later trials must reproduce.
struct BaselineMeasurement {
  strategies::TrialResult trial;
  double cached_median_mib_s = 0.0;
  std::uint32_t data_crc32 = 0;
};

/// Runs trials against one device. Each trial is a forked child (probe::run_in_child) that
/// applies the configuration's changes, reads every changed setting back, measures, reads
/// back again, checksums a fixed sample of blocks (CRC-32, Boost.CRC) and restores the
/// original settings; the parent then restores them too, so a child that died mid-way
/// leaves nothing changed. Statuses: unsupported (driver refused a setting), error (EIO or
/// a failed read, crash), unstable (setting did not read back as applied, or data differs
/// from the baseline), hang (killed by the watchdog: overall timeout or stall limit), wedged
/// (the killed child stays in uninterruptible sleep). The parent never touches the device
/// during trials: the restore after each trial also runs in a watched child (time limit: the
/// stall limit, else the trial timeout), and a restore child that wedges makes the trial
/// wedged too. After a wedged trial run() does not restore at all.
class TrialRunner {
 public:
  TrialRunner(probe::Device& device, probe::Settings original, TrialSettings settings);

  /// Measure the original settings (trial id 0), with a cached-read figure and the checksum.
  /// Errors: the baseline could not be measured (status not ok): the run cannot go on.
  probe::Result<BaselineMeasurement> measure_baseline();
  /// One trial of `config`; the device is back at the original settings afterwards (unless
  /// the trial is wedged). Errors: only when the original settings could not be restored
  /// (exit code 4).
  probe::Result<strategies::TrialResult> run(const probe::Settings& config);
  /// Restore the original settings from a watched child (the restore may block on a wedged
  /// device). A wedged restore child marks the device wedged. Errors: errc::timed_out when
  /// the child hung or wedged, errc::io_error when the restore failed (message says which).
  /// Time limit: the stall limit, else the trial timeout, at most 10 s.
  probe::Result<void> restore_watched();
  /// Why the device is wedged ("" while it is not): set by the first wedged trial.
  [[nodiscard]] const std::string& wedged_detail() const { return wedged_detail_; }
  /// True once a restore child wedged: any further restore would block the same way.
  [[nodiscard]] bool restore_blocks() const { return restore_blocks_; }
  /// The stall limit trials run with now (nullopt: only the timeout).
  [[nodiscard]] std::optional<bench::Seconds> stall_limit() const { return stall_; }

 private:
  strategies::TrialResult run_child(const probe::Settings& config, bool with_cached);
  probe::ChildOutcome restore_in_child(bench::Seconds timeout);

  probe::Device& device_;
  probe::Settings original_;
  TrialSettings settings_;
  std::optional<bench::Seconds> stall_;
  std::string wedged_detail_;
  bool restore_blocks_ = false;
  std::optional<std::uint32_t> baseline_crc_;
  double last_cached_mib_s_ = 0.0;
  std::uint32_t last_crc_ = 0;
};

}  // namespace disktune::tuner
