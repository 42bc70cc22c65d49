// SPDX-License-Identifier: GPL-2.0-or-later
// UdevRulesEmitter: the winner as a udev rule that re-applies it on every add/change event.
#pragma once

#include "results/emitter.hpp"

#include <string>
#include <string_view>

namespace disktune::results {

/// Renders one udev rule (ATA-REFERENCE §6.3) for /etc/udev/rules.d/69-disktune.rules:
/// ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", then a match on
/// ENV{ID_SERIAL} when model and serial are known (stable across reboots, §6.5) or else on
/// KERNEL=="name"; ATTR{queue/ATTR}="v" for queue settings (scheduler before nr_requests);
/// RUN+="/usr/sbin/hdparm -q -X66 -q -d1 ... /dev/%k" for ATA settings (-q before each flag:
/// it silences only the next one). keep_baseline or no change: comments only. Header as
/// snippet_header. Throws std::invalid_argument for unsafe names (snippet_target,
/// check_scheduler_name).
class UdevRulesEmitter : public Emitter {
 public:
  [[nodiscard]] std::string render(const Report& report) const override;
};

/// The ID_SERIAL udev's ata_id gives a drive: model and serial each with whitespace runs
/// turned into one '_' and characters outside [0-9A-Za-z#+-.:=@_] replaced by '_', joined
/// by '_' ("IBM-DJNA-352500_GW0GWF05809"). Empty when model or serial is empty.
std::string udev_id_serial(std::string_view model, std::string_view serial);

}  // namespace disktune::results
