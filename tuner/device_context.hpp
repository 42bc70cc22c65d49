// SPDX-License-Identifier: GPL-2.0-or-later
// DeviceContext: an opened device with its identify data, capabilities and original settings
// (tuner/device/open_device.hpp opens one).
#pragma once

#include "probe/device.hpp"

#include <memory>
#include <optional>
#include <string>

namespace disktune::tuner {

/// What every command learns about a device before doing anything to it.
struct DeviceContext {
  std::unique_ptr<probe::Device> device;
  std::optional<probe::IdentifyInfo> identify;  ///< nullopt when the device answers no identify
  std::string identify_note;                    ///< why there is no identify data
  std::vector<probe::Capability> capabilities;
  probe::Settings original;                     ///< snapshot before any change
  probe::SchedulerTunables original_tunables;   ///< the active scheduler's tunables then
  bool recovered_probe = false;                 ///< a killed probe's record was restored first
};

}  // namespace disktune::tuner
