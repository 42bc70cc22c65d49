// SPDX-License-Identifier: GPL-2.0-or-later
// Host: the machine behind the commands (where state lives, how a device is opened), real or a test's fake.
#pragma once

#include "probe/device.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace disktune::tuner {

/// Opens the device a spec names ("sim:", "sim:FILE" or a /dev path), as make_device does.
using DeviceOpener =
    std::function<probe::Result<std::unique_ptr<probe::Device>>(const std::string& spec, const probe::DeviceOptions&)>;

/// What the commands (tune, apply, verify, restore, install) take from the machine besides
/// the device's own files: where locks, probe records and journals live, and how a device
/// spec is opened. host() is the real machine unless a test installs a fake with
/// ScopedHost: then apply, verify, restore and the journal run in-process without root
/// against a fake device and a temporary directory (as ninja's tests run its builder
/// against a VirtualFileSystem). The /sys reads of in-use checks and of drive matching's
/// size filter stay real: a fake spec names nothing there, so it is in use by nothing.
struct Host {
  /// Device and install locks and capability-probe records (DeviceLock, probe_record.hpp).
  std::string lock_dir = "/run/disktune";
  /// Where default journals go (default_journal_path); nullopt: /var/lib/disktune when it
  /// can be created and written, else $XDG_STATE_HOME/disktune or ~/.local/state/disktune.
  std::optional<std::string> state_dir;
  /// Opens a device spec; empty: the real factory (tuner/device/device_factory.hpp).
  DeviceOpener open_device;
  /// Whether a device path exists, for drive matching's candidates (keep/drive_match.hpp);
  /// empty: std::filesystem::exists (symlinks followed).
  std::function<bool(const std::string& path)> device_exists;
  /// The devices' state lives in this process (a fake's in-memory disks): settings are
  /// written here, not from a watched child, whose writes would end with it (SettingsWriter).
  bool devices_in_memory = false;
};

/// The host the commands run on (the real one unless a ScopedHost is alive).
const Host& host();

/// Installs `fake` as host() for its lifetime and puts the previous one back after (tests;
/// not thread-safe: install it before any thread that reads host() starts).
class ScopedHost {
 public:
  explicit ScopedHost(Host fake);
  ScopedHost(const ScopedHost&) = delete;
  ScopedHost& operator=(const ScopedHost&) = delete;
  ~ScopedHost();

 private:
  Host previous_;
};

}  // namespace disktune::tuner
