// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxQueue: the block-layer settings of a real device (sysfs queue/ and BLKRAGET/BLKRASET).
#pragma once

#include "probe/device.hpp"
#include "probe/linux/sysfs.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace disktune::probe {

/// Powers of two in [low, high] plus `current`, ascending, without duplicates. Values of
/// `current` outside the range are kept (it is what the queue holds now). low must be >= 1.
std::vector<std::int64_t> power_ladder(std::int64_t low, std::int64_t high, std::int64_t current);

/// The queue_depth values disktune tries: powers of two from 1 up to `current_depth` and it.
/// The depth as found is the maximum: libata sets the largest the drive (IDENTIFY word 75)
/// and host allow (ata_scsi_dev_config), and the kernel clamps larger writes, which then do
/// not read back (ata_change_queue_depth, scsi_change_queue_depth).
std::vector<std::int64_t> queue_depth_ladder(std::int64_t current_depth);

/// The max_sectors_kb values disktune tries [KiB]: powers of two from one page (`page_kb`) up
/// to `max_hw_kb`, `max_hw_kb` itself (the largest request the hardware takes, and the
/// kernel's default: blk_validate_limits caps max_sectors at max_hw_sectors; 1280 on a loop
/// device, not a power of two) and `current_kb`. Without max_hw_kb a tune from 128 stopped at
/// 1024, reading about 20 % below 1280 on a throttled loop device (adversarial review).
std::vector<std::int64_t> max_sectors_ladder(std::int64_t page_kb, std::int64_t max_hw_kb, std::int64_t current_kb);

/// The read_ahead_kb values disktune tries: {0, 16, 32, ..., 8192} KiB plus `current_kb`.
std::vector<std::int64_t> read_ahead_ladder(std::int64_t current_kb);

/// The values disktune tries for a read-side scheduler tunable, plus `current` when given
/// (a few around the kernel's default, not every integer; docs/scheduler-knobs.md says why):
/// fifo_batch 1, 4, 16, 64; read_expire 100, 200, 500, 1000 ms (multiples of 20 ms, which HZ 100, 250, 300 and 1000 all store exactly in jiffies); low_latency 0, 1;
/// slice_idle 0, 4, 8, 16 ms; read_lat_nsec 500000, 1000000, 2000000, 4000000 ns. Ascending.
std::vector<std::int64_t> tunable_ladder(SettingId id, std::optional<std::int64_t> current);

/// Every writable queue/iosched/* file of the active scheduler with its text (none without
/// iosched/). Errors: a read's error.
Result<std::vector<std::pair<std::string, std::string>>> read_tunables(const SysfsQueue& sysfs);
/// Write tunables back, in order. Errors: the first write's error.
Result<void> write_tunables(const SysfsQueue& sysfs, const std::vector<std::pair<std::string, std::string>>& tunables);

/// The block-layer settings of one whole-disk device: read_ahead_kb, scheduler, nr_requests,
/// max_sectors_kb, nomerges, rq_affinity (sysfs queue/, docs/ata-reference.md §6.4; nomerges and
/// rq_affinity take 0, 1, 2: Documentation/ABI/stable/sysfs-block) and readahead (BLKRAGET, hdparm -a),
/// which is the same kernel value as read_ahead_kb and therefore read-only here; and the SCSI
/// device's queue_depth (<block dir>/device/queue_depth: SCSI and SATA disks, NCQ on libata),
/// unsupported where that file is missing (loop, virtio, NVMe).
/// Does not own `fd` (the LinuxDevice's read-only descriptor for the ioctls).
class LinuxQueue {
 public:
  /// `sysfs`: the device's queue/ directory; `fd`, `dev_path`: its open node, for the ioctls.
  /// Remembers the active scheduler's tunables (queue/iosched/*) as found.
  LinuxQueue(SysfsQueue sysfs, int fd, std::string dev_path);

  /// True for the settings this class handles (readahead and the four queue settings).
  static bool handles(SettingId id);
  /// Support and reason of `id`, without values. Cheap: reads only, never writes. A scheduler
  /// tunable is unsupported unless its scheduler is active (it has no file otherwise).
  [[nodiscard]] Capability support(SettingId id) const;
  /// Support, reason and values of `id`. A scheduler tunable is supported (tunable_ladder)
  /// also while another scheduler is active, when the queue offers and can switch to its
  /// scheduler: a configuration with that scheduler sets it. For nr_requests this WRITES each candidate (powers
  /// of two 4..2048 and the current value) to queue/nr_requests to learn which ones the queue
  /// accepts under the current scheduler, and restores the original value afterwards on every
  /// path; then the same under every other scheduler (values_by_scheduler,
  /// accepted_nr_requests_by_scheduler; also when nr_requests is below 4 and so read-only). These writes change queue settings only, never the
  /// device's data.
  Capability capability(SettingId id);
  /// Current value. Errors: the sysfs read or ioctl error (ENOENT: no such attribute).
  [[nodiscard]] Result<SettingValue> read(SettingId id) const;
  /// Write one setting. A scheduler switch back to a scheduler seen active before writes its
  /// remembered tunables again (a switch resets them). Errors: (errno, "write
  /// queue/<attr>=<value>", sysfs path), EINVAL = the kernel refused the value; readahead: errc::operation_not_supported (tuned as
  /// read_ahead_kb); (errno, "ioctl(BLKRASET)", device) when sysfs lacks read_ahead_kb.
  Result<void> apply(SettingId id, const SettingValue& value);
  /// The nr_requests values the queue accepts now (see capability). Errors: reading the
  /// original, a write failing other than with EINVAL, or the restore failing.
  Result<std::vector<std::int64_t>> accepted_nr_requests();
  /// The nr_requests values each listed scheduler accepts (its range depends on the elevator,
  /// and a switch resets nr_requests): the current one as accepted_nr_requests(), then every
  /// other one switched to and probed the same way (only its default, the value a switch
  /// sets, when that is below what a write can produce: ata_piix's 2, or 1 under none). The scheduler, its tunables (queue/iosched/*, which a switch resets) and
  /// nr_requests are put back afterwards on every path and read back. Only the current
  /// scheduler when the queue cannot switch. Errors: a probe's or the restore's error.
  Result<std::map<std::string, std::vector<std::int64_t>>> accepted_nr_requests_by_scheduler();
  /// The active scheduler and its tunables now (read_tunables). Errors: a read's error.
  [[nodiscard]] Result<SchedulerTunables> active_tunables() const;
  /// Remember `tunables` as their scheduler's (replacing what this object saw): a switch back
  /// to it writes them, restore_kept_tunables puts them back.
  void keep_tunables(const SchedulerTunables& tunables);
  /// Write the remembered tunables of the active scheduler that differ, then read every one
  /// back. Nothing to do when none are remembered for it. Errors: a write's error, or
  /// (EIO, "restore queue/iosched/<name>=<value> (reads back <text>)", path).
  Result<void> restore_kept_tunables();

 private:
  void remember_tunables();
  Result<std::vector<std::int64_t>> ladder_or_default();
  Result<void> switch_scheduler(const std::string& name);
  [[nodiscard]] Result<std::int64_t> blkraget_sectors() const;
  [[nodiscard]] Capability attribute_support(SettingId id) const;
  [[nodiscard]] Capability scheduler_support() const;
  [[nodiscard]] Capability tunable_support(SettingId id) const;
  Capability tunable_capability(SettingId id);
  [[nodiscard]] Result<SchedulerList> read_scheduler() const;
  [[nodiscard]] Result<std::vector<std::int64_t>> number_values(SettingId id, std::int64_t current);

  /// The queue/ directory, or device/ for queue_depth (is_device_attribute).
  [[nodiscard]] const SysfsQueue& dir_of(SettingId id) const;

  SysfsQueue sysfs_;
  SysfsQueue device_;  ///< <block dir>/device: the SCSI device's attributes (queue_depth)
  int fd_;
  std::string dev_path_;
  /// Tunables of each scheduler as first seen active: a switch resets them to the elevator's
  /// defaults, so a switch back to that scheduler writes them again (apply).
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> tunables_;
};

}  // namespace disktune::probe
