// SPDX-License-Identifier: GPL-2.0-or-later
// SettingsWriter: the one way settings are written to a device outside a trial: the originals put back, and apply's answer (in process when simulated, else in a watched child).
#pragma once

#include "probe/core/clock.hpp"
#include "probe/device.hpp"
#include "probe/watch/watchdog.hpp"
#include "tuner/host/host.hpp"

#include <string>

namespace disktune::tuner {

/// Time limit of a watched restore: writing a handful of settings takes milliseconds, so
/// 10 s without an end is a hang.
inline constexpr probe::Seconds kRestoreLimit{10.0};

/// What a write (a restore, or apply's) came to.
struct Written {
  probe::Result<void> done;                         ///< ok, or why not (see SettingsWriter::restore)
  probe::ChildEnd end = probe::ChildEnd::finished;  ///< the restore child's end (finished in process)
  std::string detail;                               ///< the watchdog's detail ("" in process)
  std::string why{};  ///< a failure's own cause, without the "restore the original settings" wording ("" when done)
};

/// Writes whole configurations to one device: the original settings put back after trials
/// and on every exit path (restore), and `apply`'s answer (write). Always through
/// Device::restore (probe::apply_configuration: coupling-aware, re-written until EVERY
/// setting reads back as the target). Where it runs is
/// the rule of trial_runner.hpp: a queue write (scheduler, nr_requests) freezes the queue and
/// waits for in-flight reads, which on a wedged device never complete, so a real device is
/// restored from a watched child (probe::run_in_child, process-group kill, state D check)
/// and never from this process; a simulated drive's state lives in this process (and
/// cannot wedge), as a fake host's disks do (host().devices_in_memory), so it is written here. Every restore and apply of disktune goes through this class.
class SettingsWriter {
 public:
  /// in_process: restore here even for a real device (only for bodies already running in a
  /// watched child, and evaluate's in-process runs of simulated drives).
  explicit SettingsWriter(probe::Device& device, bool in_process = false)
      : device_(device), in_process_(in_process || device.simulated() || host().devices_in_memory) {}

  /// Restore `settings`, within `limit` when watched.
  /// Errors: in process, Device::restore's own error (naming the setting); watched,
  /// errc::timed_out when the child hung or wedged (end says which), errc::io_error when the
  /// restore failed, op "restore the original settings (<why>)".
  [[nodiscard]] Written restore(const probe::Settings& settings, probe::Seconds limit = kRestoreLimit) const {
    return write(settings, "restore the original settings", limit);
  }
  /// Write `settings` the same way for another `purpose` ("apply the report's settings": what
  /// `apply` writes a report's answer with), named in the error's op: "<purpose> (<why>)".
  [[nodiscard]] Written write(const probe::Settings& settings, const std::string& purpose,
                               probe::Seconds limit = kRestoreLimit) const;
  /// Restore here, in this process: for the body of a child that is already watched (the
  /// trial child puts the original back before it reports; its parent restores again).
  /// Errors: Device::restore's.
  [[nodiscard]] probe::Result<void> restore_here(const probe::Settings& settings) const;
  [[nodiscard]] bool in_process() const { return in_process_; }

 private:
  probe::Device& device_;
  bool in_process_;
};

/// RAII over a SettingsWriter: puts the original settings back on every exit path that did not
/// restore (an exception, an early return), reporting a failure on stderr (a destructor
/// cannot return it). dismiss(): the caller restores another way, or must not (wedged).
class RestoreGuard {
 public:
  RestoreGuard(const SettingsWriter& restorer, probe::Settings original) : restorer_(restorer), original_(std::move(original)) {}
  RestoreGuard(const RestoreGuard&) = delete;
  RestoreGuard& operator=(const RestoreGuard&) = delete;
  ~RestoreGuard();
  /// Never restore from this object.
  void dismiss() { dismissed_ = true; }

 private:
  const SettingsWriter& restorer_;
  probe::Settings original_;
  bool dismissed_ = false;
};

}  // namespace disktune::tuner
