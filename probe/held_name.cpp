// SPDX-License-Identifier: GPL-2.0-or-later
// HeldName: the /proc/self/fd name of a held block device, and its check before each use.
#include "probe/held_name.hpp"

#include "probe/core/text.hpp"

#include <sys/stat.h>

#include <cerrno>

namespace disktune::probe {
Result<HeldName> held_name(int fd, const std::string& shown) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return errno_error(errno, "fstat", shown);
  return HeldName{"/proc/self/fd/" + std::to_string(fd), fd, info.st_rdev, shown, info.st_dev, info.st_ino};
}

Result<void> check_held(const HeldName& held) {
  struct stat info {};
  const bool same = ::stat(held.path.c_str(), &info) == 0 && info.st_dev == held.node_dev &&
                    info.st_ino == held.node_ino && info.st_rdev == held.device_number;
  if (same) return {};
  return Error{std::make_error_code(std::errc::no_such_device),
               "the held device (" + dev_number_text(held.device_number) + ") no longer reads as " + held.path +
                   ": nothing is measured through another device",
               held.shown};
}

}  // namespace disktune::probe
