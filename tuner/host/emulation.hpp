// SPDX-License-Identifier: GPL-2.0-or-later
// Whether a device is EMULATED: a loop device whose backing file lies on a FUSE mount.
#pragma once

#include <string>

namespace disktune::tuner {

/// The FUSE mount type behind the loop device at `device_path` ("fuse.emudisk": a timing
/// model behind the kernel, EMULATED; docs/emulated-disk.md), read from the loop's
/// backing_file (sysfs) and the mount holding that file (/proc/self/mountinfo). Empty for any
/// other device, a loop device over an ordinary file, and a backing file that is gone.
/// Source: probe::loop_backing_file, probe::fuse_mount_type_of_file.
std::string loop_emulation(const std::string& device_path);

/// `device_path` as the outputs name a device: "/dev/loop0 [EMULATED drive]" when
/// loop_emulation finds a FUSE file behind it, else `device_path` itself (a device that is
/// not hardware is named for what it is in every output).
std::string device_label(const std::string& device_path);

}  // namespace disktune::tuner
