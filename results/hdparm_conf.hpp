// SPDX-License-Identifier: GPL-2.0-or-later
// HdparmConfEmitter: the winner as a Debian/Ubuntu /etc/hdparm.conf block.
#pragma once

#include "results/emitter.hpp"

namespace disktune::results {

/// Renders an /etc/hdparm.conf block (docs/ata-reference.md §6.2) for the changed ATA settings, in
/// the seed's flag order: transfer_mode = N (-X code), dma = on|off, interrupt_unmask = on|off,
/// mult_sect_io = N, io32_support = N, read_ahead_sect = N; spaces around '=', comments on
/// lines of their own (the Debian parser allows nothing else). The block is keyed by the
/// by-id path when known (Debian resolves it with readlink -m). Queue settings cannot be
/// expressed in hdparm.conf: they are listed in a comment pointing to the udev rules.
/// No block either (a comment listing the ATA settings instead) for a real drive whose
/// kernel name is not [sh]d[a-z]: Debian's 85-hdparm.rules runs the reader for those only,
/// and the reader cuts a resolved by-id name at its first digit (nvme0n1 -> /dev/nvme).
/// keep_baseline or no ATA change: comments only. Header as snippet_header.
/// Throws std::invalid_argument for unsafe device paths (snippet_target).
class HdparmConfEmitter : public Emitter {
 public:
  [[nodiscard]] std::string render(const Report& report) const override;
};

/// The block alone, as `disktune install --form hdparm-conf` puts it into /etc/hdparm.conf:
/// HdparmConfEmitter's text without the header and the "Append to" line (the by-id warning
/// and the queue-settings comment stay); "" when the emitter would write no block. Throws as
/// HdparmConfEmitter::render.
std::string hdparm_conf_stanza(const Report& report);

/// Why hdparm_conf_stanza(report) is "", the one reason that holds, in words for a refusal:
/// the report's own reason for having nothing to apply (too noisy, stopped, keep the
/// baseline, nothing tried), "its answer changes no ATA setting or readahead (only queue
/// settings: ...)", or "Debian's hdparm applies /etc/hdparm.conf only to /dev/sd[a-z] and
/// /dev/hd[a-z] (85-hdparm.rules), not to NAME". "" when there is a block.
std::string hdparm_conf_missing_reason(const Report& report);

}  // namespace disktune::results
