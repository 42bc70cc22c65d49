// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner: one configuration applied, read back, measured and checked inside a watchdog child.
#pragma once

#include "probe/device.hpp"
#include "probe/watchdog.hpp"
#include "strategies/evaluator.hpp"
#include "strategies/trial.hpp"
#include "tuner/device_health.hpp"
#include "tuner/restorer.hpp"
#include "tuner/trial_settings.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::tuner {

/// The baseline's figures: its trial, a cached-read figure and the data checksum that
/// later trials must reproduce.
struct BaselineMeasurement {
  strategies::TrialResult trial;
  double cached_median_mib_s = 0.0;
  std::uint32_t data_crc32 = 0;
  /// The medians of the baseline measured as separate trials (the first, then
  /// TrialSettings::noise_repeats more, each a child opening the device anew) [MiB/s].
  std::vector<double> aa_samples_mib_s;
  /// The noise between repeated measurements of one configuration (bench::repeat_noise of
  /// those trials' samples: the relative difference two of their medians have on average), percent.
  double noise_floor_pct = 0.0;
  /// Measurement time of all the baseline's children (the noise repeats included) [s;
  /// virtual when simulated]; a baseline taken from a journal has only its trial's.
  double measured_s = 0.0;
};

/// Fill `baseline`'s aa_samples_mib_s (the medians) and noise_floor_pct (bench::repeat_noise)
/// from the samples of separate measurements of the baseline.
void set_noise(BaselineMeasurement& baseline, const std::vector<std::vector<double>>& trials);

/// Runs trials against one device. Each trial is a forked child (probe::run_in_child) that
/// applies the configuration's changes, reads every setting of the configuration back (the
/// original settings with the changes: one that another process or a kernel coupling
/// changed makes the trial unstable, kChangedPrefix), only then opens the device (a file's
/// readahead window is fixed at open), measures, reads every setting back again, checksums a fixed sample of blocks (CRC-32, Boost.CRC) and restores the
/// original settings; the parent then restores them too (from a watched child), so a child
/// that died mid-way leaves nothing changed. The child beats a heartbeat after every read
/// chunk and setting change, so a stalled read is seen long before the timeout. Statuses:
/// unsupported (driver refused a setting), error (EIO or a failed read, crash), unstable
/// (a setting did not read back as claimed, or data differs from the baseline's unless
/// TrialSettings::data_in_use), hang (killed
/// by the watchdog), wedged (killed, but stuck in state D: nothing touches the device again).
class TrialRunner {
 public:
  TrialRunner(probe::Device& device, probe::Settings original, TrialSettings settings);

  /// Measure the original settings (trial id 0), with a cached-read figure and the checksum,
  /// then measure them TrialSettings::noise_repeats times more, each as a trial of its own
  /// (a child opening the device anew): the relative spread of those trial medians is the
  /// run's noise floor, the spread a repeated measurement of one configuration has. With
  /// derive_limits, the time limits come from the first child's rate before the others run.
  /// Errors: the baseline could not be measured (status not ok, stopped()): the run cannot go on.
  probe::Result<BaselineMeasurement> measure_baseline();
  /// Measure the original settings `count` times more, each in its own child with the
  /// current sampling plan, and return each one's samples [MiB/s] (the noise measurement
  /// again, e.g. with more samples per trial).
  /// Errors: one of them did not end ok (its status and detail).
  probe::Result<std::vector<std::vector<double>>> remeasure_baseline(int count);
  /// Measurement time of the last remeasure_baseline [s].
  [[nodiscard]] double remeasured_s() const { return noise_measured_s_; }
  /// Samples per trial from now on (the noise may call for more).
  void set_sampling(const bench::SamplingPlan& plan) { settings_.sampling = plan; }
  /// Rounds of the confirmation round from now on (the time budget may call for fewer).
  void set_confirm_rounds(int rounds) { settings_.confirm_rounds = rounds; }
  /// The settings trials run with now (limits derived from the baseline included).
  [[nodiscard]] const TrialSettings& settings() const { return settings_; }
  /// True when the last child was killed because TrialSettings::stop_now asked for it.
  [[nodiscard]] bool stopped() const { return stopped_; }
  /// One trial of `config` with adaptive sampling (stopping early when clearly below
  /// `request.incumbent_low_mib_s`, or at the minimum when quick); the device is back at the
  /// original settings afterwards (unless the trial is wedged: then nothing more is done and
  /// wedged_detail() says why). After a trial that did not end ok (a rejected setting, read
  /// errors such as libata's multcount hazard, a hang), verify_readable() checks that the
  /// restored drive still reads.
  /// Errors: the original settings could not be restored (exit code 4), or the drive no
  /// longer reads after the restore (unreadable() is then true: exit code 3).
  probe::Result<strategies::TrialResult> run(const probe::Settings& config,
                                             const strategies::TrialRequest& request = {});
  /// Use a baseline measured earlier (by a run this one resumes) instead of measuring it.
  /// Its data checksum is what later trials must reproduce; without --stall-timeout, its
  /// rate sets the stall limit (probe::stall_limit_for one chunk's time).
  void adopt_baseline(const BaselineMeasurement& baseline);
  /// Flush the page cache and read the first 64 KiB through a buffered BlockIo, in a
  /// watchdog child (a wedged drive must not block the parent).
  /// Errors: errc::io_error, op "read a block after restoring the original settings (<why>);
  /// the device may need a reset".
  probe::Result<void> verify_readable();
  /// True once verify_readable failed inside run(): the run must stop (exit 3).
  [[nodiscard]] bool unreadable() const { return health_.unreadable(); }
  /// Restore the original settings from a watched child: a queue write (scheduler,
  /// nr_requests) freezes the queue and waits for in-flight reads, which on a wedged device
  /// never complete. In this process for in_process runs and simulated drives. Time limit:
  /// the larger of 10 s and the stall limit, at most the trial timeout. A wedged restore
  /// child marks the device wedged.
  /// Errors: errc::timed_out when the child hung or wedged, errc::io_error when the restore
  /// failed (the message names the setting).
  probe::Result<void> restore_watched();
  /// Why the device is wedged ("" while it is not): set by the first child (trial, restore,
  /// read check or confirmation round) left in uninterruptible sleep after SIGKILL.
  [[nodiscard]] const std::string& wedged_detail() const { return health_.wedged_detail(); }
  /// True once a restore child wedged: any further restore would block the same way.
  [[nodiscard]] bool restore_blocks() const { return health_.restore_blocks(); }
  /// The stall limit trials run with now (nullopt: only the timeout).
  [[nodiscard]] std::optional<bench::Seconds> stall_limit() const { return stall_; }
  /// Confirmation round in one child: confirm_rounds rounds, each measuring every contender
  /// in turn (A B C A B C ...); each such unit restores the original, applies the
  /// contender's changes, reads every setting back, then opens the device and takes a
  /// warm-up sample and one kept sample, and reads every setting back again (a contender
  /// whose settings do not read back as claimed is unstable and not measured again).
  /// Errors: the original settings could not be restored, or the round's child wedged
  /// (errc::timed_out; wedged_detail() says why).
  probe::Result<std::vector<strategies::TrialResult>> confirm(const std::vector<probe::Settings>& contenders);

 private:
  strategies::TrialResult run_child(const probe::Settings& config, bool with_cached,
                                    const strategies::TrialRequest& request);
  probe::ChildOutcome run_body(const std::function<std::string(probe::Heartbeat&)>& body, bench::Seconds timeout,
                               bool stoppable = true);
  [[nodiscard]] strategies::TrialResult result_of(const probe::ChildOutcome& outcome) const;
  void limits_from_rate(double rate_mib_s);
  void check_reads_drained(probe::ChildOutcome& outcome) const;

  probe::Device& device_;
  probe::Settings original_;
  TrialSettings settings_;
  Restorer restorer_;
  bool stopped_ = false;
  std::optional<bench::Seconds> stall_;
  DeviceHealth health_;
  std::optional<std::uint32_t> baseline_crc_;
  double last_cached_mib_s_ = 0.0;
  std::uint32_t last_crc_ = 0;
  double noise_measured_s_ = 0.0;  // what the last remeasure_baseline measured [s]
};

}  // namespace disktune::tuner
