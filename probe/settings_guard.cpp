// SPDX-License-Identifier: GPL-2.0-or-later
// SettingsGuard: restore on scope exit.
#include "probe/settings_guard.hpp"

#include <iostream>

namespace disktune::probe {

Result<void> SettingsGuard::restore() {
  auto restored = device_.restore(original_);
  if (restored) restored_ = true;
  return restored;
}

SettingsGuard::~SettingsGuard() {
  if (restored_) return;
  if (auto restored = restore(); !restored)
    std::cerr << "disktune: could not restore the original settings: " << restored.error() << '\n';
}

}  // namespace disktune::probe
