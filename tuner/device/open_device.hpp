// SPDX-License-Identifier: GPL-2.0-or-later
// Opening the device a command names (open_device) and describing it and its space for reports.
#pragma once

#include "results/report.hpp"
#include "strategies/search_space.hpp"
#include "tuner/device_context.hpp"

#include <ostream>
#include <string_view>

namespace disktune::tuner {

/// Open `request.spec` and read identify, capabilities and
/// the original settings. Call under the device lock (DeviceLock). Throws RunError: exit 2
/// for bad input, 3 for device errors, 4 when a leftover probe record cannot be restored.
DeviceContext open_device(const DeviceRequest& request, std::ostream& log);
/// open_device without the capability probe (context.capabilities empty). The probe writes
/// trial values (queue/nr_requests): `tune` records the original settings in its journal
/// first, then calls probe_capabilities. First puts back the settings of a probe that was
/// killed (recover_probe_record, saying so on `log`). Throws like open_device.
DeviceContext open_device_unprobed(const DeviceRequest& request, std::ostream& log);

/// The FUSE mount type behind `device` when it is a loop device whose backing file lies on a
/// FUSE file system ("fuse.emudisk"): an EMULATED drive (tuner::loop_emulation).
/// Empty for a simulated drive, hardware, and a loop device over an ordinary file.
std::string emulation_of(const probe::Device& device);
/// Fill context.capabilities (the device's capability probe; may write and restore
/// settings), with the original settings recorded next to the device lock while it writes
/// (with_probe_record), so a kill -9 mid-probe is undone by the next command.
void probe_capabilities(DeviceContext& context);

/// Refuse (RunError, exit 2) a real disk that is mounted, swapped on or held by md/dm/LVM
/// (it, or one of its partitions), unless --allow-mounted: "refusing to COMMAND DEVICE: why
/// (--allow-mounted to COMMAND it anyway)", `command` the verb ("tune", "plan", "apply to").
/// Checked before the device is opened. Simulated drives pass.
void refuse_device_in_use(const DeviceRequest& request, std::string_view command);

/// What bounds the legal space beyond the device itself (plan and tune's options).
struct SpaceBounds {
  std::optional<std::vector<probe::SettingId>> only;  ///< --only SETTING,...: nullopt = every setting
  bool safe_only = false;    ///< --safe-only: only settings of probe::Risk::safe
  bool data_in_use = false;  ///< --allow-mounted: the data-safe knobs only (probe::in_use_hazard)
};

/// The legal space of an opened device within `bounds` (strategies::build_space); a knob
/// --allow-mounted refuses is excluded with probe::in_use_hazard's reason.
strategies::SearchSpace plan_space(const DeviceContext& context, const SpaceBounds& bounds);

/// The report's device, space and identify sections for an opened device.
results::DeviceInfo describe_device(const DeviceContext& context);
results::SpaceInfo describe_space(const strategies::SearchSpace& space);

}  // namespace disktune::tuner
