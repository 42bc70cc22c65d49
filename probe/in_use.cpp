// SPDX-License-Identifier: GPL-2.0-or-later
// Per knob, from the hdparm manual: which ATA knobs a mounted disk must not have changed, and why.
#include "probe/in_use.hpp"

namespace disktune::probe {

std::optional<std::string_view> in_use_hazard(SettingId id) {
  switch (id) {
    // hdparm(8) -m: "Some drives claim to support multiple mode, but lose data at some
    // settings ... massive filesystem corruption". Measured in the ATA lab (pio_facts.sh):
    // multcount 0 makes every PIO read fail with EIO, which a mounted file system meets as
    // I/O errors and a read-only remount.
    case SettingId::multcount:
      return "hdparm(8) warns some drives lose data at some counts (file system "
             "corruption), and multcount 0 fails every PIO read with EIO (a mounted file system "
             "then remounts read-only)";
    // hdparm(8) -c: value 3's "special sync sequence [is] required by many chipsets"; on such
    // a chipset 32-bit transfers without it move garbage (docs/ata-reference.md §4.2).
    case SettingId::io_support:
      return "32-bit I/O on a chipset that needs the sync sequence, or has no "
             "32-bit support, transfers garbage data (hdparm(8) -c, docs/ata-reference.md §4.2)";
    // hdparm(8) -u: "some drive/controller combinations do not tolerate the increased I/O
    // latencies ... resulting in massive filesystem corruption".
    case SettingId::unmaskirq:
      return "hdparm(8) warns some drive/controller combinations then suffer "
             "massive filesystem corruption";
    // hdparm(8) -d itself warns only of slowness on broken hardware; it is refused because
    // its only legal changes go with -X (a DMA mode needs using_dma 1, a PIO mode 0; the
    // manual says to set -X with -d1), and -X is refused; broken DMA hardware also times
    // out and locks up (docs/ata-reference.md §4.2) under the file system's own I/O.
    case SettingId::using_dma:
      return "changes only together with xfermode (-X), which is refused; broken "
             "DMA hardware times out or locks up (docs/ata-reference.md §4.2)";
    // hdparm(8) -X: "the IDE interface should be jumpered or programmed ... to prevent loss
    // and/or corruption of data. Use this with extreme caution!"
    case SettingId::xfermode:
      return "hdparm(8) warns of loss and/or corruption of data unless the "
             "interface is programmed for the mode (\"use this with extreme caution\")";
    // hdparm(8) -B and -M warn of nothing about data: they choose the drive's power and seek
    // profile, never which bytes are read or written. -B 1-127 permit spin-down, which on a
    // busy disk costs spin-up delays and load cycles, not data; disktune never searches those
    // levels on any disk (power_levels.hpp: pruned with that reason). So both are data-safe
    // and searched on a disk in use as well.
    default:
      return std::nullopt;
  }
}

}  // namespace disktune::probe
