// SPDX-License-Identifier: GPL-2.0-or-later
// Default Device::restore: the convergent apply_configuration.
#include "probe/device.hpp"

#include <cctype>

#include "probe/configuration.hpp"

namespace disktune::probe {

namespace {

bool plain_name(std::string_view name, std::string_view extra) {
  if (name.empty()) return false;
  for (const char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && extra.find(c) == std::string_view::npos) return false;
  return true;
}

}  // namespace

bool is_tunable_name(std::string_view name) {
  constexpr std::string_view kPrefix = "iosched/";
  return name.starts_with(kPrefix) && plain_name(name.substr(kPrefix.size()), "");
}

bool is_scheduler_name(std::string_view name) { return plain_name(name, "-"); }

Result<void> Device::restore(const Settings& settings) { return apply_configuration(*this, settings); }

bool Device::read_back_trusted(SettingId) const { return true; }

HeldName Device::held() const { return HeldName{{}, -1, 0, path()}; }

Result<SchedulerTunables> Device::scheduler_tunables() { return SchedulerTunables{}; }

void Device::keep_tunables(const SchedulerTunables&) {}

}  // namespace disktune::probe
