// SPDX-License-Identifier: GPL-2.0-or-later
// TunedProfileEmitter: the winner as a TuneD profile fragment (disk and sysfs units).
#pragma once

#include "results/emitter.hpp"
#include "results/udev_rules.hpp"

#include <string>
#include <string_view>

namespace disktune::results {

/// Renders a TuneD (2.20) profile fragment for Red Hat family hosts, to append to a custom
/// profile's tuned.conf after its [main] section:
/// - `[disktune-disk-KEY]` with `type=disk` (TuneD's disk plugin, plugin_disk.py):
///   `devices_udev_regex=^(ID_WWN=0x...|ID_SERIAL=...)$` matched against the drive's udev
///   properties (device_matcher_udev.py: "KEY=value" lines, re.MULTILINE), from
///   udev_id_wwn(wwid) and udev_id_serial(model, serial); `devices=KERNEL` (with a comment
///   saying it is no stable identity) when the drive has neither (a loop device: its backing
///   file is no udev property). `priority=-1` so the unit claims the drive before an
///   included profile's [disk] (priority 0) does; `dynamic=0` so TuneD never changes APM or
///   spin-down by load. Options: elevator = scheduler, readahead = read_ahead_kb [KiB] or
///   readahead [sectors, "N s"], apm = -B level.
/// - `[disktune-sysfs-KEY]` with `type=sysfs` for the other queue settings, as
///   `/sys/block/KERNEL/queue/ATTR=value` (device/queue_depth): TuneD's sysfs plugin
///   matches paths by glob only, so these name the kernel name, said in a comment. A setting
///   after one of them in apply order goes there too (TuneD applies the disk unit first),
///   so the apply order (probe::in_apply_order) is kept.
/// - ATA settings TuneD has no option for (-X -d -u -m -c -M) listed in a comment.
/// keep_baseline or no change: comments only. Header as snippet_header.
/// Throws std::invalid_argument for unsafe names (snippet_target, check_scheduler_name).
/// Source: TuneD 2.20 tuned/plugins/plugin_disk.py, plugin_sysfs.py, units/manager.py
/// (instances sorted by priority), profiles/loader.py (ConfigParser, '=' only, '#' comments).
class TunedProfileEmitter : public Emitter {
 public:
  [[nodiscard]] std::string render(const Report& report) const override;
};

/// The units alone, as `disktune install --form tuned` writes them after its own [main]
/// section: TunedProfileEmitter's text without the header and the "Append to" lines (the
/// comment on ATA settings TuneD has no option for stays); "" when TuneD can apply none of
/// the changes. Throws as TunedProfileEmitter::render.
std::string tuned_profile_units(const Report& report);


}  // namespace disktune::results
