// SPDX-License-Identifier: GPL-2.0-or-later
// RunError, UsageError and the exit codes: how a failed run reaches main().
#pragma once

#include "probe/core/error.hpp"

#include <stdexcept>
#include <string>

namespace disktune::tuner {

/// Exit codes of the disktune command (README "Exit codes").
enum ExitCode : int {
  kExitOk = 0,           ///< done (also when the answer is "keep the baseline")
  kExitPartial = 1,      ///< interrupted (SIGINT/SIGTERM/SIGHUP) after restoring the settings
  kExitDrift = 1,        ///< verify: a setting is not as the report expects, or its drive is absent
  kExitUsage = 2,        ///< usage error or bad input (file, profile, arguments)
  kExitDevice = 3,       ///< device error (open, identify, read, measure)
  kExitRestoreFailed = 4, ///< the original settings could not be restored
  kExitWedged = 5,       ///< a trial child is stuck in uninterruptible sleep: device left alone
  kExitTooNoisy = 6      ///< the noise exceeds the smallest accepted gain and nothing beat it
};

/// An unrecoverable failure of a run, with the exit code it maps to. Thrown at the edges
/// only (tuner/), caught once in main().
class RunError : public std::runtime_error {
 public:
  RunError(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  [[nodiscard]] ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

/// A command-line error: printed as one line, exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input (errc::invalid_argument: unreadable capture, bad profile, bad spec) maps to
/// exit 2, everything else from a device to exit 3.
[[noreturn]] inline void throw_device_error(const probe::Error& error) {
  const bool bad_input = error.code == std::errc::invalid_argument;
  throw RunError(bad_input ? kExitUsage : kExitDevice, error.message());
}

}  // namespace disktune::tuner
