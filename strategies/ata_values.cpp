// SPDX-License-Identifier: GPL-2.0-or-later
// The ATA settings' legal values (ata_values.hpp).
#include "strategies/ata_values.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace disktune::strategies {
namespace {

using probe::SettingId;
using probe::SettingValue;

bool contains(const std::vector<int>& modes, int mode) {
  return std::find(modes.begin(), modes.end(), mode) != modes.end();
}

SettingValue number(std::int64_t n) { return SettingValue(n); }

// Why an xfermode code is not legal for this drive, or "" when it is.
std::string xfermode_refusal(const probe::IdentifyInfo& id, std::int64_t code) {
  const auto family = *probe::xfermode_family(code);
  const int mode = probe::xfermode_number(code);
  switch (family) {
    case probe::XferFamily::pio:
      return contains(id.pio_modes, mode) ? "" : "PIO mode not supported by the drive (words 51, 64)";
    case probe::XferFamily::sdma:
      return "single-word DMA is obsolete since ATA-3 and not tuned";
    case probe::XferFamily::mdma:
      if (!id.dma_supported) return "DMA modes need DMA support (word 49 bit 8)";
      return contains(id.mdma_modes, mode) ? "" : "MDMA mode not supported by the drive (word 63)";
    case probe::XferFamily::udma:
      if (!id.dma_supported) return "DMA modes need DMA support (word 49 bit 8)";
      if (!contains(id.udma_modes, mode)) return "UDMA mode not supported by the drive (word 88, word 53 bit 2)";
      if (mode > 2 && id.cable_80wire != true)
        return "UDMA above mode 2 needs an 80-wire cable (word 93 does not report one)";
      return "";
  }
  return "unknown transfer mode";
}

}  // namespace

// hdparm -m accepts 0..64; legal: 0 and powers of two up to MaxMultSect (docs/ata-reference.md §4.1).
std::vector<SettingValue> multcount_values(const probe::IdentifyInfo& id, PruneLog& log) {
  constexpr std::int64_t kHdparmMax = 64;
  const std::int64_t max = std::min<std::int64_t>(id.max_multsect, kHdparmMax);
  std::vector<SettingValue> legal{number(0)};
  for (std::int64_t n = 1; n <= max; n *= 2) legal.push_back(number(n));
  log.add("multcount above MaxMultSect (word 47 = " + std::to_string(id.max_multsect) + ")",
          static_cast<std::size_t>(kHdparmMax - max));
  log.add("multcount not 0 or a power of two (drives abort other counts; libata honours only powers of two)",
          static_cast<std::size_t>(max + 1) - legal.size());
  return legal;
}

std::vector<SettingValue> io_support_values(PruneLog& log) {
  log.add("io_support 2 is not a defined mode (0 = 16-bit, 1 = 32-bit, 3 = 32-bit with sync)");
  return {number(0), number(1), number(3)};
}

std::vector<SettingValue> xfermode_values(const probe::IdentifyInfo& id, PruneLog& log) {
  std::vector<SettingValue> legal;
  for (const auto family : {probe::XferFamily::pio, probe::XferFamily::sdma, probe::XferFamily::mdma,
                            probe::XferFamily::udma})
    for (int mode = 0; mode < 8; ++mode) {
      const auto code = probe::xfermode_code(family, mode);
      const auto refusal = xfermode_refusal(id, code);
      if (refusal.empty())
        legal.push_back(number(code));
      else
        log.add(refusal);
    }
  return legal;
}

std::vector<SettingValue> using_dma_values(const probe::IdentifyInfo& id, PruneLog& log) {
  if (id.dma_supported) return {number(0), number(1)};
  log.add("using_dma=1 needs DMA support (word 49 bit 8 clear)");
  return {number(0)};
}

// The joint (using_dma, xfermode) choices: DMA modes only with DMA on, PIO modes only with it off.
Group transfer_group(const std::vector<SettingValue>& dma, const std::vector<SettingValue>& xfer,
                     PruneLog& log) {
  Group group{{SettingId::using_dma, SettingId::xfermode}, {}};
  for (const auto& d : dma)
    for (const auto& x : xfer) {
      const bool dma_mode = probe::xfermode_is_dma(x.number());
      if (dma_mode && d.number() == 0) {
        log.add("DMA xfermode only with using_dma=1");
      } else if (!dma_mode && d.number() == 1) {
        log.add("PIO xfermode only with using_dma=0");
      } else {
        group.choices.push_back({{SettingId::using_dma, d}, {SettingId::xfermode, x}});
      }
    }
  return group;
}

}  // namespace disktune::strategies
