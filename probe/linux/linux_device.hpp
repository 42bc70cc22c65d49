// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxDevice: a real block device through the kernel (HDIO ioctls, SG_IO, sysfs queue/).
#pragma once

#include "probe/device.hpp"

#include <memory>
#include <string>

namespace disktune::probe {

/// Open a whole-disk block device read-only (O_RDONLY; nothing is ever written to it).
/// Errors: (errno, "open", path); ENOTBLK when `path` is not a block device;
/// errc::invalid_argument when it is a partition (settings belong to the whole disk).
Result<std::unique_ptr<Device>> make_linux_device(const std::string& path);

}  // namespace disktune::probe
