// SPDX-License-Identifier: GPL-2.0-or-later
// Whether a device is EMULATED: a loop device whose backing file lies on a FUSE mount.
#pragma once

#include "probe/held_name.hpp"

#include <string>

namespace disktune::tuner {

/// The FUSE mount type behind the loop device at `device_path` ("fuse.emudisk": a timing
/// model behind the kernel, EMULATED; docs/emulated-disk.md): the mount (/proc/self/mountinfo)
/// whose device number is that of the file the loop holds open (LOOP_GET_STATUS64), never a
/// stat of the backing_file path. Empty for any other device, a loop device over an ordinary
/// file, and a FUSE mount no longer listed (unmounted, even lazily).
/// Source: probe::loop_backing_device, probe::fuse_mount_type.
std::string loop_emulation(const std::string& device_path);

/// `device_path` as the outputs name a device: "/dev/loop0 [EMULATED drive]" when
/// loop_emulation finds a FUSE file behind it, else `device_path` itself (a device that is
/// not hardware is named for what it is in every output).
std::string device_label(const std::string& device_path);

/// A warning for a loop device that reads its backing file through the page cache
/// (probe::loop_direct_io false): its reads run at memory speed, noisy from run to run, unless
/// a throttle caps them, so a tune there shows the tool at work, not a disk's answer; and for
/// one whose backing file is on tmpfs or ramfs (its mount type, by the device number the loop
/// holds), which reads memory with direct I/O too; a loop device over another block device
/// (a loop over a loop) gets that one's note ("/dev/loop3 reads /dev/loop2: ..."), `depth`
/// counting the levels (at most 8). Empty for any other device.
std::string page_cache_note(const std::string& device_path, int depth = 0);
/// page_cache_note of the held device, reached through device.path ("/proc/self/fd/N"), and
/// named device.shown in the note.
std::string page_cache_note(const probe::HeldName& device);

}  // namespace disktune::tuner
