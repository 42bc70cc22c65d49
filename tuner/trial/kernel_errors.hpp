// SPDX-License-Identifier: GPL-2.0-or-later
// KernelErrors: where a trial's kernel-log evidence comes from (the kernel log, or a test's fake).
#pragma once

#include "probe/device.hpp"

#include <memory>
#include <string>
#include <vector>

namespace disktune::tuner {

/// The ATA and I/O errors the kernel logs about one device, read trial by trial.
class KernelErrors {
 public:
  virtual ~KernelErrors() = default;
  /// Watch from now on: what was logged before is no trial's of this runner.
  virtual void start() = 0;
  /// The error messages about the device logged since start() or the last call, in order
  /// (message text only; probe::is_error_line, probe::concerns_device).
  virtual std::vector<std::string> new_errors() = 0;
};

/// The kernel log's (/dev/kmsg through probe::KernelLogWatch) for a real device; for a
/// simulated one, which logs nothing to the kernel, a source that never reports an error.
std::unique_ptr<KernelErrors> kernel_errors_of(const probe::Device& device);

}  // namespace disktune::tuner
