// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated legacy IDE driver's checks (ide-disk set_multcount, ide-ioctls.c, hdparm ranges).
#include "probe/sim/sim_rules.hpp"

#include <algorithm>

namespace disktune::probe {
namespace {

std::optional<int> highest(const std::vector<int>& modes) {
  if (modes.empty()) return std::nullopt;
  return *std::max_element(modes.begin(), modes.end());
}

bool at_most(std::optional<int> limit, int mode) { return limit && mode <= *limit; }

std::string ioctl_name(SettingId id) {
  switch (id) {
    case SettingId::multcount: return "HDIO_SET_MULTCOUNT";
    case SettingId::io_support: return "HDIO_SET_32BIT";
    case SettingId::unmaskirq: return "HDIO_SET_UNMASKINTR";
    case SettingId::using_dma: return "HDIO_SET_DMA";
    case SettingId::xfermode: return "HDIO_DRIVE_CMD SETFEATURES 0x03";
    default: return "BLKRASET";
  }
}

Error refuse(int errnum, SettingId id, const SettingValue& value, const std::string& why,
             const std::string& path) {
  std::string shown = value.is_number() ? std::to_string(value.number()) : value.text();
  return errno_error(errnum, "ioctl(" + ioctl_name(id) + " " + shown + ") [simulated: " + why + "]",
                     path);
}

// The accepted range of each plain numeric knob; nullopt when the value is out of it.
std::optional<std::string> range_problem(SettingId id, std::int64_t number, const SimLimits& limits) {
  switch (id) {
    case SettingId::multcount:
      if (number <= limits.max_multsect) return std::nullopt;
      return "above MaxMultSect " + std::to_string(limits.max_multsect);
    case SettingId::io_support:
      if (number == 0 || number == 1 || number == 3) return std::nullopt;
      return "io_support must be 0, 1 or 3";
    case SettingId::unmaskirq:
    case SettingId::using_dma:
      if (number <= 1) return std::nullopt;
      return "must be 0 or 1";
    case SettingId::readahead:
      if (number <= 2048) return std::nullopt;
      return "readahead must be 0..2048 sectors";
    default:
      if (xfermode_family(number) && number >= 0) return std::nullopt;
      return "not a transfer mode code";
  }
}

}  // namespace

SimLimits sim_limits(const IdentifyInfo& identify, std::optional<bool> cable_override) {
  SimLimits limits;
  limits.max_multsect = identify.max_multsect;
  limits.dma_supported = identify.dma_supported;
  limits.max_pio = highest(identify.pio_modes).value_or(0);
  limits.sdma_modes = identify.sdma_modes;
  limits.max_mdma = highest(identify.mdma_modes);
  limits.max_udma = highest(identify.udma_modes);
  // Unreported cable: a SATA link has no cable limit, and a capture taken with UDMA3+ active
  // shows that the drive ran behind an 80-wire cable; otherwise assume 40-wire.
  const bool inferred = identify.is_sata || identify.udma_active.value_or(0) > 2;
  limits.cable_80wire = cable_override.value_or(identify.cable_80wire.value_or(inferred));
  return limits;
}

bool xfermode_allowed(const SimLimits& limits, std::int64_t code) {
  const auto family = xfermode_family(code);
  if (!family) return false;
  const int mode = xfermode_number(code);
  if (*family == XferFamily::pio) return mode <= limits.max_pio;
  if (!limits.dma_supported) return false;
  switch (*family) {
    case XferFamily::sdma:
      return std::find(limits.sdma_modes.begin(), limits.sdma_modes.end(), mode) !=
             limits.sdma_modes.end();
    case XferFamily::mdma: return at_most(limits.max_mdma, mode);
    default: return at_most(limits.max_udma, mode) && (mode <= 2 || limits.cable_80wire);
  }
}

std::int64_t fastest_pio_code(const SimLimits& limits) {
  return xfermode_code(XferFamily::pio, limits.max_pio);
}

std::optional<std::int64_t> best_dma_code(const SimLimits& limits) {
  for (std::int64_t code = 71; code >= 16; --code)
    if (xfermode_is_dma(code) && xfermode_allowed(limits, code)) return code;
  return std::nullopt;
}

SimState sim_default_state(const IdentifyInfo& identify, const SimLimits& limits) {
  SimState state;  // multcount 0, io_support 0, unmaskirq 0, using_dma 0, readahead 8
  state.xfermode = fastest_pio_code(limits);
  if (identify.udma_active)
    state.xfermode = xfermode_code(XferFamily::udma, *identify.udma_active);
  else if (identify.mdma_active)
    state.xfermode = xfermode_code(XferFamily::mdma, *identify.mdma_active);
  // An active mode the cable (or the profile's override) forbids: the driver limits it at boot.
  if (!xfermode_allowed(limits, state.xfermode))
    state.xfermode = best_dma_code(limits).value_or(fastest_pio_code(limits));
  return state;
}

Result<SimState> sim_apply(const SimState& state, SettingId id, const SettingValue& value,
                           const SimLimits& limits, const std::string& path) {
  if (!value.is_number() || value.number() < 0)
    return refuse(EINVAL, id, value, "expected a non-negative number", path);
  const std::int64_t number = value.number();
  if (const auto problem = range_problem(id, number, limits))
    return refuse(EINVAL, id, value, *problem, path);
  if (id == SettingId::xfermode && !xfermode_allowed(limits, number))
    return refuse(EINVAL, id, value,
                  format_value(id, value) + " not allowed by the drive" +
                      (limits.cable_80wire ? "" : " or the 40-wire cable"),
                  path);
  SimState next = with_value(state, id, number);
  if (id == SettingId::xfermode && !xfermode_is_dma(number)) next.using_dma = false;
  if (id == SettingId::using_dma && number == 1) {
    const auto dma = best_dma_code(limits);
    if (!limits.dma_supported || !dma)
      return refuse(EPERM, id, value, "drive reports no DMA (word 49 bit 8 clear)", path);
    if (!xfermode_is_dma(state.xfermode)) next.xfermode = *dma;
  }
  return next;
}

}  // namespace disktune::probe
