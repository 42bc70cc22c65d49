// SPDX-License-Identifier: GPL-2.0-or-later
// FakeHost: a machine of in-memory disks whose settings persist across opens, with its own state directory (tests).
#pragma once

#include "probe/device.hpp"
#include "tests/support/temp_dir.hpp"
#include "tuner/host/host.hpp"

#include <map>
#include <memory>
#include <string>

namespace disktune::testing {

/// The path of the fake machine's first disk; any path starting "/dev/disktune-fake" is one of its disks.
inline constexpr const char* kFakeDisk = "/dev/disktune-fake0";

/// Installs itself as tuner::host() for its lifetime (tuner::ScopedHost): locks, probe
/// records and journals go to a temporary directory, and every open of one of its paths
/// (kFakeDisk, ...) answers the same in-memory disk: the simulated seed drive's identify
/// data and settings (IBM-DJNA-352500), not marked simulated, so reports of it are a real
/// disk's to apply, verify and restore; a setting one command writes is still there for the
/// next, as on a real machine. Any other spec is "no such device" (ENOENT): nothing real is
/// opened. Commands then run in this process without root.
class FakeHost {
 public:
  FakeHost();

  /// The disk at `path` (made on first use); REQUIREs a fake path.
  probe::Device& disk(const std::string& path = kFakeDisk);
  /// Where the fake machine keeps its journals (tuner::Host::state_dir).
  [[nodiscard]] std::string state_dir() const { return dir_.path() + "/state"; }
  /// The directory of its locks and probe records (tuner::Host::lock_dir).
  [[nodiscard]] std::string lock_dir() const { return dir_.path() + "/run"; }

  /// What the fake host's opener answers for `spec`: a view of the shared disk, or ENOENT.
  probe::Result<std::unique_ptr<probe::Device>> open_spec(const std::string& spec);

 private:
  TempDir dir_;
  std::map<std::string, std::shared_ptr<probe::Device>> disks_;
  tuner::ScopedHost scoped_;
};

}  // namespace disktune::testing
