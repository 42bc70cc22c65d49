// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner: one configuration applied, read back, measured and checked inside a watchdog child.
#pragma once

#include "probe/device.hpp"
#include "probe/watch/watchdog.hpp"
#include "strategies/baseline.hpp"
#include "strategies/evaluator.hpp"
#include "strategies/trial.hpp"
#include "tuner/trial/confirm_progress.hpp"
#include "tuner/trial/device_health.hpp"
#include "tuner/trial/kernel_errors.hpp"
#include "tuner/trial/settings_writer.hpp"
#include "tuner/trial/trial_plan.hpp"
#include "tuner/trial/trial_settings.hpp"
#include "tuner/trial/trial_wire.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::tuner {

/// What TrialRunner::run came to.
struct TrialRun {
  /// The trial (the device back at the original settings, unless wedged), or why the run
  /// cannot go on: the original settings could not be restored (exit 4), or the drive no
  /// longer reads after the restore (health.unreadable(): exit 3).
  probe::Result<strategies::TrialResult> result;
  /// The trial's child was killed because TrialSettings::stop_now asked for it: nothing
  /// says the device is at fault, and no result is to be recorded.
  bool stopped = false;
  /// The device's health after the trial (wedged: no further trial touches it).
  DeviceHealth health;
  double cached_mib_s = 0.0;     ///< the cached-read median [MiB/s] of a TrialKind::baseline trial; else 0
  std::uint32_t data_crc32 = 0;  ///< the data checksum the trial read (0: it stopped before)
};

/// Runs trials against one device: each trial's body (trial_child.hpp: apply, read every
/// setting back, only then open, measure, read back again, checksum, restore) in a forked
/// watchdog child (probe::run_in_child; in process only with TrialSettings::in_process),
/// its report over the wire (trial_wire.hpp), its status from the evidence (trial_verdict.hpp:
/// the child's end, the report, the kernel log, the checksum), then the original settings
/// restored by the parent too (settings_writer.hpp: from a watched child on a real device), so a
/// child that died mid-way leaves nothing changed. The child beats a heartbeat after every
/// read chunk and setting change, so a stalled read is seen long before the timeout. What
/// the children found the device to be (wedged, restore blocks, unreadable) is its
/// DeviceHealth (device_health.hpp). Results come back as values: nothing of one call is
/// read from the runner afterwards, but its health and the settings limits derive.
class TrialRunner {
 public:
  /// `kernel_errors`: where each trial's kernel-log evidence comes from; null: the device's
  /// (kernel_errors_of).
  TrialRunner(probe::Device& device, probe::Settings original, TrialSettings settings,
              std::unique_ptr<KernelErrors> kernel_errors = nullptr);

  /// The settings as found: what every trial starts from and is restored to.
  [[nodiscard]] const probe::Settings& original() const { return original_; }
  /// The settings trials run with now (limits derived from the baseline included).
  [[nodiscard]] const TrialSettings& settings() const { return settings_; }
  /// One trial of `config` of any kind (`request.kind`), all through one path: its plan
  /// (plan_of: the samples, adaptive or a confirmation unit's one, the guard, the cached
  /// figure of a baseline), the trial body in its watchdog child, the kernel log watched over
  /// its span (a kernel error about the device: unstable), its data checksum compared with
  /// the adopted baseline's (every kind but baseline and baseline_check; a difference:
  /// unstable, unless TrialSettings::data_in_use), the original settings restored by the
  /// parent and read back (unless the trial is wedged: then nothing more is done and the
  /// health says why), and after a trial that did not end ok and was not stopped,
  /// verify_readable(). The first baseline trial without --stall-timeout (derive_limits) takes
  /// kFirstStallS of silence as a stall; adopt_baseline sets the limits from its rate.
  TrialRun run(const probe::Settings& config, const strategies::TrialRequest& request = {});
  /// The baseline later trials are held to: its first trial's (this run's, or the run this
  /// one resumes). Its data checksum is what later trials must reproduce; its rate sets the
  /// trial timeout (derive_limits) and, without --stall-timeout, the stall limit
  /// (probe::stall_limit_for one chunk's time).
  void adopt_baseline(const strategies::Baseline& baseline);
  /// Flush the page cache and read the first 64 KiB through a buffered BlockIo, in a
  /// watchdog child (a wedged drive must not block the parent).
  /// Errors: errc::io_error, op "read a block after restoring the original settings (<why>);
  /// the device may need a reset".
  probe::Result<void> verify_readable();
  /// Restore the original settings from a watched child: a queue write (scheduler,
  /// nr_requests) freezes the queue and waits for in-flight reads, which on a wedged device
  /// never complete. In this process for in_process runs and simulated drives. Time limit:
  /// the larger of 10 s and the stall limit, at most the trial timeout. A wedged restore
  /// child marks the device wedged.
  /// Errors: errc::timed_out when the child hung or wedged, errc::io_error when the restore
  /// failed (the message names the setting).
  probe::Result<void> restore_watched();
  /// The device's health as the children so far found it (every wedged child, restore or
  /// read check included); it only gets worse (device_health.hpp).
  [[nodiscard]] const DeviceHealth& health() const { return health_; }
  /// After every trial, compare the disk's uses (probe::device_uses of the held device) with
  /// those at this call, and say each new one on `log` as it appears ("note: sdb1 is mounted
  /// on /mnt (appeared during the run)"); appeared_uses() keeps them for the report. For every
  /// real disk: an exclusive claim stops a mount, not a loop device set up over the disk, and
  /// under --allow-mounted nothing is claimed.
  void watch_uses(std::ostream& log);
  /// Every use that appeared since watch_uses, in order.
  [[nodiscard]] const std::vector<std::string>& appeared_uses() const { return appeared_; }

 private:
  // A trial child's verdict with the figures only the baseline keeps.
  struct ChildRun {
    strategies::TrialResult trial;
    double cached_mib_s = 0.0;
    std::uint32_t crc = 0;
    bool stopped = false;
  };
  ChildRun run_child(const TrialPlan& plan);
  ChildRun watched_child(const TrialPlan& plan);
  probe::Result<strategies::TrialResult> after_trial(ChildRun child);
  probe::ChildOutcome run_body(const std::function<std::string(probe::Heartbeat&)>& body, probe::Seconds timeout,
                               bool stoppable = true);
  [[nodiscard]] strategies::TrialResult result_of(const probe::ChildOutcome& outcome,
                                                  const std::optional<ChildReport>& report) const;
  void limits_from_rate(double rate_mib_s);
  void check_reads_drained(probe::ChildOutcome& outcome) const;

  probe::Device& device_;
  probe::Settings original_;
  TrialSettings settings_;
  SettingsWriter restorer_;
  std::optional<probe::Seconds> stall_;
  DeviceHealth health_;
  std::unique_ptr<KernelErrors> kernel_errors_;
  std::optional<std::uint32_t> baseline_crc_;
  std::ostream* uses_log_ = nullptr;   // watch_uses' stream; null: uses are not watched
  std::vector<std::string> uses_;      // the uses seen so far
  std::vector<std::string> appeared_;  // those that appeared during the run
  void note_new_uses();
  [[nodiscard]] std::vector<std::string> watched_uses() const;
};

}  // namespace disktune::tuner
