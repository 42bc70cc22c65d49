// SPDX-License-Identifier: GPL-2.0-or-later
// HeldName: the device disktune opened and holds, named so that no other program can be sent elsewhere.
#pragma once

#include "probe/core/error.hpp"

#include <sys/types.h>

#include <string>

namespace disktune::probe {

/// The block device a command opened, as every engine that reads it must name it. A user's
/// path can move (a /dev/disk/by-id or by-path symlink re-pointed by udev during a run) or be
/// re-parsed (fio splits filename= at ':', which every by-path name holds), so nothing is ever
/// handed the user's path to open: `path` is "/proc/self/fd/N" of the descriptor the device
/// object holds for its lifetime. A fork()ed child inherits N at the same number; an exec()ed
/// one (fio) is given N to keep (bench/fio_process.hpp FioLimits::inherit_fd). Opening `path`
/// opens the very inode held, whatever has since happened to the names in /dev (a device node
/// made in a private directory would not do: /run is often mounted nodev).
/// Source: proc(5) /proc/pid/fd; fio(1) filename ("fio separates filenames with ':'").
struct HeldName {
  std::string path;         ///< "/proc/self/fd/N"; empty for a device that holds nothing (simulated)
  int fd = -1;              ///< N
  dev_t device_number = 0;  ///< the held device's st_rdev, taken from the descriptor at open
  std::string shown;        ///< the name the user gave ("/dev/disk/by-path/...:..."), for messages only
  dev_t node_dev = 0;       ///< st_dev and st_ino of the node opened: the inode `path` must reach
  ino_t node_ino = 0;
};

/// A HeldName for the descriptor `fd`, opened by the caller from `shown`: a block device
/// (LinuxDevice) or, for tests, any file.
/// Errors: fstat's errno (op "fstat", path `shown`).
Result<HeldName> held_name(int fd, const std::string& shown);

/// Check, before a sample, that `held.path` still reaches the held node: the same inode
/// (st_dev, st_ino) and device number (st_rdev) as at open, so a descriptor closed and its
/// number reused by another file is never measured.
/// Errors: errc::no_such_device with op "the held device ... no longer reads as ..." and
/// path = held.shown.
Result<void> check_held(const HeldName& held);

}  // namespace disktune::probe
