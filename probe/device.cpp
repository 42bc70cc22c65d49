// SPDX-License-Identifier: GPL-2.0-or-later
// Default Device::restore: the convergent apply_configuration.
#include "probe/device.hpp"

#include "probe/configuration.hpp"

namespace disktune::probe {

Result<void> Device::restore(const Settings& settings) { return apply_configuration(*this, settings); }

bool Device::read_back_trusted(SettingId) const { return true; }

Result<SchedulerTunables> Device::scheduler_tunables() { return SchedulerTunables{}; }

void Device::keep_tunables(const SchedulerTunables&) {}

}  // namespace disktune::probe
