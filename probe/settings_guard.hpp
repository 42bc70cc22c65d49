// SPDX-License-Identifier: GPL-2.0-or-later
// SettingsGuard: RAII that puts a device's original settings back on every exit path.
#pragma once

#include "probe/device.hpp"

namespace disktune::probe {

/// Holds a device and its original settings; restore() puts them back and reads them back.
/// The destructor restores if restore() was never called (an exception or an early return),
/// reporting a failure on stderr, since a destructor cannot return it. A failed restore()
/// is not retried by the destructor: its caller has the error and reports it.
class SettingsGuard {
 public:
  SettingsGuard(Device& device, Settings original) : device_(device), original_(std::move(original)) {}
  SettingsGuard(const SettingsGuard&) = delete;
  SettingsGuard& operator=(const SettingsGuard&) = delete;
  ~SettingsGuard();

  /// Restore now (Device::restore: apply_configuration, which re-writes whatever a coupled
  /// write moved until every setting reads back). Errors: as apply_configuration, naming the
  /// setting. After any call the destructor does nothing.
  Result<void> restore();
  /// Never restore from this object (the device is wedged and a restore could block the
  /// caller; the caller restores another way or reports why not).
  void dismiss() { attempted_ = true; }
  [[nodiscard]] const Settings& original() const { return original_; }

 private:
  Device& device_;
  Settings original_;
  bool attempted_ = false;
};

}  // namespace disktune::probe
