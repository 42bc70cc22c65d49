// SPDX-License-Identifier: GPL-2.0-or-later
// SettingsGuard: restore on scope exit.
#include "probe/settings_guard.hpp"

#include <iostream>

namespace disktune::probe {

Result<void> SettingsGuard::restore() {
  attempted_ = true;
  return device_.restore(original_);
}

SettingsGuard::~SettingsGuard() {
  if (attempted_) return;
  if (auto restored = restore(); !restored)
    std::cerr << "disktune: could not restore the original settings: " << restored.error() << '\n';
}

}  // namespace disktune::probe
