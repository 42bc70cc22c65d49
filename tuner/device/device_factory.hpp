// SPDX-License-Identifier: GPL-2.0-or-later
// The composition root of devices: "sim:", "sim:FILE" or a block device path to a backend.
#pragma once

#include "probe/device.hpp"

#include <memory>
#include <string>

namespace disktune::tuner {

/// Open a device from its spec: "sim:" (the built-in seed drive, IBM-DJNA-352500),
/// "sim:FILE" (a simulated drive from an identify capture), or a block device path.
/// Errors: bad spec, unreadable identify file or profile (errc::invalid_argument with the
/// reason), open errors (errno, "open", path), a path that is not a block device (ENOTBLK).
/// Under a fake host (host().open_device set: tests) that opener answers instead.
probe::Result<std::unique_ptr<probe::Device>> make_device(const std::string& spec,
                                                         const probe::DeviceOptions& options);

}  // namespace disktune::tuner
