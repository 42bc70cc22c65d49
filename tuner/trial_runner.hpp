// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner: one configuration applied, read back, measured and checked inside a watchdog child.
#pragma once

#include "bench/benchmark.hpp"
#include "probe/device.hpp"
#include "strategies/trial.hpp"

#include <cstdint>
#include <optional>

namespace disktune::tuner {

/// What every trial measures and how long it may take.
struct TrialSettings {
  bench::Workload workload;          ///< buffered reads (hdparm -t style)
  int repeats = 3;                   ///< samples per trial
  bench::Seconds timeout{30.0};      ///< wall time before the trial counts as hung
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
/// from the baseline), hang (killed by the watchdog).
class TrialRunner {
 public:
  TrialRunner(probe::Device& device, probe::Settings original, TrialSettings settings);

  /// Measure the original settings (trial id 0), with a cached-read figure and the checksum.
  /// Errors: the baseline could not be measured (status not ok): the run cannot go on.
  probe::Result<BaselineMeasurement> measure_baseline();
  /// Use a baseline measured earlier (by a run this one resumes) instead of measuring it.
  void adopt_baseline(const BaselineMeasurement& baseline) { baseline_crc_ = baseline.data_crc32; }
  /// One trial of `config`; the device is back at the original settings afterwards.
  /// Errors: only when the original settings could not be restored (exit code 4).
  probe::Result<strategies::TrialResult> run(const probe::Settings& config);

 private:
  strategies::TrialResult run_child(const probe::Settings& config, bool with_cached);

  probe::Device& device_;
  probe::Settings original_;
  TrialSettings settings_;
  std::optional<std::uint32_t> baseline_crc_;
  double last_cached_mib_s_ = 0.0;
  std::uint32_t last_crc_ = 0;
};

}  // namespace disktune::tuner
