// SPDX-License-Identifier: GPL-2.0-or-later
// BootLocalEmitter: the winner as a boot.local / rc.local shell snippet (the seed's hdparm line).
#pragma once

#include "results/emitter.hpp"

namespace disktune::results {

/// Renders a shell snippet for /etc/init.d/boot.local or /etc/rc.local (docs/ata-reference.md §6.1):
/// the header comment (snippet_header), then ONE hdparm line for the changed ATA settings in
/// the seed's form and flag order (`hdparm -X66 -d1 -u1 -m16 -c3 /dev/hdb`; device = the
/// by-id path when known), then `echo VALUE > /sys/block/NAME/queue/ATTR` lines for changed
/// queue settings in apply order (scheduler before nr_requests; scheduler names single-quoted).
/// With a by-id path the kernel name is resolved at boot (`readlink -f`), since kernel names
/// can change between boots (§6.5). Only report.winner.changes appear; with keep_baseline the
/// snippet is comments only, saying why. The output passes `bash -n`.
/// Throws std::invalid_argument for device paths, kernel names or scheduler names that are
/// not safe in a shell script (see snippet_target, check_scheduler_name).
class BootLocalEmitter : public Emitter {
 public:
  [[nodiscard]] std::string render(const Report& report) const override;
};

}  // namespace disktune::results
