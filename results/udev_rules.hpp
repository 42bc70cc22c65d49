// SPDX-License-Identifier: GPL-2.0-or-later
// UdevRulesEmitter: the winner as a udev rule that re-applies it on every add/change event.
#pragma once

#include "probe/settings.hpp"
#include "results/emitter.hpp"

#include <string>
#include <string_view>

namespace disktune::results {

/// Renders one udev rule (docs/ata-reference.md §6.3) for /etc/udev/rules.d/69-disktune.rules:
/// ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", then udev_match_clause
/// (never the kernel name: without a stable identity there is no rule, only a comment saying
/// why); ATTR{queue/ATTR}="v" for queue settings (scheduler before nr_requests);
/// RUN+="/usr/sbin/hdparm -q -X66 -q -d1 ... /dev/%k" for ATA settings (-q before each flag:
/// it silences only the next one). keep_baseline or no change: comments only. Header as
/// snippet_header. Throws std::invalid_argument for unsafe names (snippet_target,
/// check_scheduler_name).
class UdevRulesEmitter : public Emitter {
 public:
  [[nodiscard]] std::string render(const Report& report) const override;
};

/// The udev match of a drive by its stable identity (a kernel name can
/// name another disk after a reboot): a loop device by its backing file
/// (KERNEL=="loop[0-9]*", ATTR{loop/backing_file}=="FILE"); a disk with identify data by
/// ENV{ID_BUS}=="ata", ENV{ID_SERIAL}=="MODEL_SERIAL" (the bus guard keeps the rule off
/// other kinds of device; 60-persistent-storage.rules sets both); else by ATTRS{wwid}=="W"
/// (the disk's or its SCSI parent's), which an NVMe namespace (kernel name nvme*) matches as
/// KERNEL=="nvme*", ENV{ID_WWN}=="W" (60-persistent-storage copies its wwid whole; systemd
/// 252 sets no ID_BUS for NVMe, so the kernel-name class is the bus guard) and a SCSI disk as
/// KERNEL=="sd*", ATTRS{wwid}=="W" (scsi_id's ID_WWN is only the first 64 bits of an NAA-6
/// name, so the whole wwid is matched). Empty when the drive has none of them. Throws
/// std::invalid_argument for a backing file or wwid holding a udev pattern character
/// (* ? [ ] |), a quote, a backslash or a control character: it would match other devices.
std::string udev_match_clause(const DeviceInfo& device);

/// The rule itself (no comments): ACTION=="add|change", SUBSYSTEM=="block",
/// ENV{DEVTYPE}=="disk", udev_match_clause(device), then the ATTR{} and RUN+= actions of
/// `changes`, one per continued line, newline-terminated. Empty when the device has no stable
/// identity. Throws std::invalid_argument as udev_match_clause and for an unsafe scheduler name.
std::string udev_rule(const DeviceInfo& device, const probe::Settings& changes);

/// The ID_SERIAL udev's ata_id gives a drive: model and serial each with whitespace runs
/// turned into one '_' and characters outside [0-9A-Za-z#+-.:=@_] replaced by '_', joined
/// by '_' ("IBM-DJNA-352500_GW0GWF05809"). Empty when model or serial is empty.
std::string udev_id_serial(std::string_view model, std::string_view serial);

/// The ID_WWN udev gives a disk whose kernel wwid (sysfs wwid, DeviceInfo::wwid) is `wwid`:
/// "naa.5000C500A1B2C3D4..." -> "0x5000c500a1b2c3d4" (ata_id and scsi_id print the first 64
/// bits in lower case), "eui.*" / "nvme.*" as they are (60-persistent-storage.rules copies
/// an NVMe namespace's wwid). Empty for any other form ("t10.ATA ..." is no WWN) or when a
/// character is outside [0-9A-Za-z.-].
std::string udev_id_wwn(std::string_view wwid);

}  // namespace disktune::results
