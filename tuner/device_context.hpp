// SPDX-License-Identifier: GPL-2.0-or-later
// DeviceContext: an opened device with its identify data, capabilities and original settings
// (tuner/device/open_device.hpp opens one).
#pragma once

#include "probe/core/unique_fd.hpp"
#include "probe/device.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace disktune::tuner {

/// Which device a command opens, and how: the command line's DEVICE (identify/plan --from FILE
/// already folded in as "sim:FILE"), --seed, --sim-profile and --allow-mounted.
struct DeviceRequest {
  std::string spec = "sim:";               ///< a /dev path, "sim:" or "sim:FILE" (probe::make_device)
  std::uint64_t seed = 1;                  ///< --seed N: a simulated drive's noise sequence
  std::optional<std::string> sim_profile;  ///< --sim-profile FILE: a simulated drive's timing model
  bool allow_mounted = false;              ///< --allow-mounted: the disk's data is in use (mounted, md/dm)
};

/// The capture file a "sim:FILE" DEVICE names; nullopt for "sim:" and real devices.
inline std::optional<std::string> sim_capture_file(const std::string& device) {
  if (device.size() <= 4 || !probe::is_sim_spec(device)) return std::nullopt;
  return device.substr(4);
}

/// What every command learns about a device before doing anything to it.
struct DeviceContext {
  std::unique_ptr<probe::Device> device;
  std::optional<probe::IdentifyInfo> identify;  ///< nullopt when the device answers no identify
  std::string identify_note;                    ///< why there is no identify data
  std::vector<probe::Capability> capabilities;
  probe::Settings original;                     ///< snapshot before any change
  probe::SchedulerTunables original_tunables;   ///< the active scheduler's tunables then
  bool recovered_probe = false;                 ///< a killed probe's record was restored first
  /// The FUSE mount type behind a loop device's backing file ("fuse.emudisk": an EMULATED
  /// drive, tuner::loop_emulation); empty for hardware and simulated drives.
  std::string emulated_by;
  /// The exclusive claim on the whole disk for the command's lifetime (tuner/device/hold.hpp
  /// hold_device); none for a simulated drive, --allow-mounted, and commands that do not hold.
  probe::UniqueFd claim;
};

}  // namespace disktune::tuner
