// SPDX-License-Identifier: GPL-2.0-or-later
// Rate model of the simulated drive: interface rates, PIO costs, pipelining, noise.
#include "probe/sim/sim_model.hpp"

#include "probe/core/assert.hpp"
#include "probe/settings.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace disktune::probe {
namespace {

constexpr double kSector = 512.0;
constexpr double kMiB = 1024.0 * 1024.0;

// Indexed by mode number (docs/ata-reference.md §3.4; PIO5/6, MDMA3/4 are CompactFlash modes).
constexpr std::array<double, 8> kPio{3.3, 5.2, 8.3, 11.1, 16.7, 20.0, 25.0, 25.0};
constexpr std::array<double, 8> kSdma{2.1, 4.2, 8.3, 8.3, 8.3, 8.3, 8.3, 8.3};
constexpr std::array<double, 8> kMdma{4.2, 13.3, 16.7, 20.0, 25.0, 25.0, 25.0, 25.0};
constexpr std::array<double, 8> kUdma{16.7, 25.0, 33.3, 44.4, 66.7, 100.0, 133.0, 167.0};

int highest(const std::vector<int>& modes) {
  return modes.empty() ? -1 : *std::max_element(modes.begin(), modes.end());
}

// Host-side time per sector: the bus transfer, plus the CPU's PIO work when not DMA.
double host_sector_s(const SimState& state, std::int64_t code, const SimMachine& machine) {
  const double bus_s = kSector / (interface_rate_mb_s(code) * 1e6);
  if (xfermode_is_dma(code)) return bus_s;
  const double irq_s = machine.irq_overhead_s * (state.unmaskirq ? machine.unmask_factor : 1.0);
  const double sync_s = state.io_support == 3 ? machine.vlb_sync_s : 0.0;
  const double pio_s = kSector * (state.io_support == 0 ? machine.pio16_cost_s_per_byte
                                                        : machine.pio32_cost_s_per_byte);
  const int sectors_per_irq = std::max(1, state.multcount);
  return bus_s + pio_s + (irq_s + sync_s) / sectors_per_irq;
}

double uniform(std::uint64_t key) {  // [-1, 1)
  return static_cast<double>(mix64(key) >> 11) * 0x1.0p-52 - 1.0;
}

double gaussian(std::uint64_t key) {  // Irwin-Hall of four uniforms, scaled to unit variance
  double sum = 0.0;
  for (std::uint64_t i = 0; i < 4; ++i) sum += uniform(mix64(key + i));
  return sum / std::sqrt(4.0 / 3.0);
}

}  // namespace

double interface_rate_mb_s(std::int64_t code) {
  const auto family = xfermode_family(code);
  DT_ASSERT(family.has_value());
  const auto mode = static_cast<std::size_t>(xfermode_number(code));
  switch (*family) {
    case XferFamily::pio: return kPio[mode];
    case XferFamily::sdma: return kSdma[mode];
    case XferFamily::mdma: return kMdma[mode];
    default: return kUdma[mode];
  }
}

double default_media_mib_s(const IdentifyInfo& identify) {
  const int udma = highest(identify.udma_modes);
  if (udma >= 6 || identify.is_sata) return 60.0;
  if (udma == 5) return 40.0;
  if (udma >= 3) return 18.5;
  if (udma >= 0) return 12.0;
  if (!identify.mdma_modes.empty()) return 8.0;
  return 4.0;
}

std::int64_t transfer_code(const SimState& state, std::int64_t fastest_pio) {
  if (!xfermode_is_dma(state.xfermode)) return state.xfermode;
  return state.using_dma ? state.xfermode : fastest_pio;
}

double sector_time_s(const SimState& state, std::int64_t fastest_pio, double media_mib_s,
                     const SimMachine& machine) {
  const double media_s = kSector / (media_mib_s * kMiB);
  const double host_s = host_sector_s(state, transfer_code(state, fastest_pio), machine);
  return std::max(media_s, host_s) + machine.overlap_loss * std::min(media_s, host_s);
}

double request_time_s(const SimState& state, std::int64_t fastest_pio, const SimMachine& machine) {
  const double irq_s = machine.irq_overhead_s * (state.unmaskirq ? machine.unmask_factor : 1.0);
  const bool dma = xfermode_is_dma(transfer_code(state, fastest_pio));
  return machine.command_overhead_s + (dma ? irq_s : 0.0);
}

Seconds uncached_read_time(const SimState& state, std::int64_t fastest_pio,
                                  double media_mib_s, std::uint64_t bytes, IoMode mode,
                                  bool sequential, const SimMachine& machine) {
  const double sector_s = sector_time_s(state, fastest_pio, media_mib_s, machine);
  const double sectors = static_cast<double>(bytes) / kSector;
  const double requests = std::ceil(sectors / machine.max_request_sectors);
  const double request_s = request_time_s(state, fastest_pio, machine);
  const int readahead = mode == IoMode::buffered ? state.readahead_sectors : 0;
  const double gap_s = machine.unplug_delay_s - std::min(machine.unplug_delay_s, readahead * sector_s);
  const double seek_s = sequential ? 0.0 : machine.positioning_s;
  return Seconds(sectors * sector_s + requests * request_s + gap_s + machine.syscall_s +
                        seek_s);
}

Seconds cached_read_time(std::uint64_t bytes, const SimMachine& machine) {
  return Seconds(static_cast<double>(bytes) / (machine.cached_mib_s * kMiB) +
                        machine.syscall_s);
}

double noise_factor(std::uint64_t seed, const SimState& state, std::uint64_t epoch,
                    std::uint64_t read_index, double noise_pct) {
  const std::uint64_t base = mix64(seed ^ sim_state_hash(state));
  const double per_sample = gaussian(mix64(base ^ mix64(epoch)));
  const double per_read = gaussian(mix64(base ^ mix64(~read_index)));
  const double z = std::sqrt(0.9) * per_sample + std::sqrt(0.1) * per_read;
  return std::max(0.05, 1.0 + noise_pct / 100.0 * z);
}

}  // namespace disktune::probe
