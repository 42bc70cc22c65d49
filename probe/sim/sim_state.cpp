// SPDX-License-Identifier: GPL-2.0-or-later
// SimState conversions to and from setting values, and its hash.
#include "probe/sim/sim_state.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>

namespace disktune::probe {

bool is_sim_setting(SettingId id) {
  return std::find(kSimSettings.begin(), kSimSettings.end(), id) != kSimSettings.end();
}

std::optional<SettingValue> sim_value(const SimState& state, SettingId id) {
  switch (id) {
    case SettingId::multcount: return SettingValue(std::int64_t{state.multcount});
    case SettingId::io_support: return SettingValue(std::int64_t{state.io_support});
    case SettingId::unmaskirq: return SettingValue(std::int64_t{state.unmaskirq ? 1 : 0});
    case SettingId::using_dma: return SettingValue(std::int64_t{state.using_dma ? 1 : 0});
    case SettingId::xfermode: return SettingValue(state.xfermode);
    case SettingId::readahead: return SettingValue(std::int64_t{state.readahead_sectors});
    default: return std::nullopt;
  }
}

Settings sim_settings(const SimState& state) {
  Settings settings;
  for (const SettingId id : kSimSettings) settings.emplace(id, *sim_value(state, id));
  return settings;
}

SimState with_value(SimState state, SettingId id, std::int64_t value) {
  switch (id) {
    case SettingId::multcount: state.multcount = static_cast<int>(value); break;
    case SettingId::io_support: state.io_support = static_cast<int>(value); break;
    case SettingId::unmaskirq: state.unmaskirq = value != 0; break;
    case SettingId::using_dma: state.using_dma = value != 0; break;
    case SettingId::xfermode: state.xfermode = value; break;
    case SettingId::readahead: state.readahead_sectors = static_cast<int>(value); break;
    default: DT_ASSERT(!"with_value: setting not modelled by the simulated drive");
  }
  return state;
}

std::uint64_t sim_state_hash(const SimState& state) {
  std::uint64_t hash = 0x5d15c0de;
  for (const SettingId id : kSimSettings)
    hash = mix64(hash ^ static_cast<std::uint64_t>(sim_value(state, id)->number()));
  return hash;
}

}  // namespace disktune::probe
