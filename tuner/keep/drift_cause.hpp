// SPDX-License-Identifier: GPL-2.0-or-later
// Why a setting drifted, said only from evidence disktune can read.
#pragma once

#include "probe/settings.hpp"
#include "probe/watch/drive_resets.hpp"

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>

namespace disktune::tuner {

/// What the drive's apply journal and the system record about it. Every field comes from a
/// record read (the journal, the lock file, udev's database, the kernel log); one not read
/// stays empty, and `no_apply` says what was found instead of an apply record.
struct DriftEvidence {
  std::string restored_at;         ///< a `disktune restore` after the last apply (UTC ISO 8601); "" none
  std::string applied_at;          ///< the last completed apply (UTC ISO 8601); "" none
  std::string applied_boot_id;     ///< the boot id that apply ran in
  std::string current_boot_id;     ///< /proc/sys/kernel/random/boot_id now
  std::optional<std::time_t> udev_event_at;  ///< mtime of udev's database entry of the device, if any
  /// From the kernel log of the apply's boot, records after the apply's (sequence number
  /// above the one its journal recorded; none when the journal has no mark, an older one):
  std::optional<probe::KernelLogEvent> resume = {};  ///< the first is_resume_message
  std::optional<probe::KernelLogEvent> reset = {};   ///< the first reset of the drive's port (first_reset)
  std::optional<std::uint64_t> applied_usec = {};    ///< CLOCK_MONOTONIC at the apply [µs], for "+T s"
  bool kernel_log_lost = false;  ///< the ring buffer overwrote records logged after the apply
  std::string lock_holder = {};    ///< the disktune command holding the device lock now (device_lock_holder); "" none
  std::string apply_journal = {};  ///< the apply journal looked at (--journal FILE, else the drive's default)
  /// With applied_at empty: what was found at apply_journal instead of a completed apply
  /// ("no apply journal at P", "the apply journal P records no completed apply", "P cannot be
  /// read: why", "P is another drive's ..."); "" when nothing was looked at.
  std::string no_apply = {};
  /// A tune journal of the device (the default journal directory's) that owes a restore
  /// (pending_restore_note: killed in a trial, or its own restore failed): "the tune journaled
  /// in J did not end (killed?): the disk may still hold a trial's settings; '... restore ...'
  /// puts back ..."; "" none.
  std::string unrestored_tune = {};
};

/// True for the settings the drive itself holds and loses on a reset, a power cycle and so on
/// a resume from suspend or hibernation (udisks#72): apm, aam, multcount, xfermode. The
/// others are the kernel's (queue/, device/queue_depth, the readahead, the IDE flags) and
/// survive both.
bool held_by_drive(probe::SettingId id);

/// The cause of a drift of `id` the evidence shows, or "" when it shows none ("cause
/// unknown" is the caller's). In this order:
/// 0. a disktune command holding the device lock now ("a disktune command holds the device
///    now: pid N (disktune tune ...): ..."): a tune's trial, its baseline or a restore may be
///    what the drive reads, so nothing else is said about it;
/// 0b. a tune journal that owes a restore (unrestored_tune): the drive may hold a trial's value;
/// 1. a restore record ("'disktune restore' at T put back ... (apply journal P)");
/// 2. an apply in another boot ("the machine restarted since the apply at T (boot id
///    changed) and nothing re-applied it");
/// 3. for a setting held_by_drive: a resume ("the kernel log shows a resume from suspend at
///    +T s after the apply ('PM: suspend exit'): drives reset APM, AAM, multcount and the
///    transfer mode on resume; the resume hook (disktune install) re-applies them"), else a
///    reset of its port ("the kernel log shows ata3 was reset at +T s after the apply
///    ('ata3: hard resetting link'): a reset restores the drive's power-on defaults");
/// 4. udev processing an event for the device after the apply ("udev handled an event for
///    the device at T, after the apply at T0: a change event (revalidation, a rule) or a
///    re-add"); for a kernel setting, a resume or reset seen too is added ("; the kernel log
///    also shows ..."), as what may have set off the event;
/// 5. for a kernel setting with a resume or reset but no udev event: no cause, said as such
///    ("cause unknown: the kernel log shows ... after the apply, but that does not itself
///    change the kernel's settings of the device (queue, readahead) and udev shows no event
///    for it since"): the kernel keeps its settings over a resume or a link reset; only a
///    revalidation or re-add that udev sees (or a rule it runs) changes them.
/// 6. for a setting held_by_drive with none of the above but records overwritten since the
///    apply: "cause unknown: the kernel log no longer holds every record since the apply (its
///    ring buffer overwrote them), so a resume or reset then cannot be ruled out".
/// Timestamps compared at whole seconds, UTC; "+T s" is the record's printk time less the
/// apply's CLOCK_MONOTONIC, both since boot without the time asleep (left out when unknown
/// or negative).
std::string drift_cause(const DriftEvidence& evidence, probe::SettingId id);

/// "2026-12-01T23:05:00Z" as a time_t (UTC); nullopt when it is not that form.
std::optional<std::time_t> parse_utc(const std::string& text);

}  // namespace disktune::tuner
