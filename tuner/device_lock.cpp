// SPDX-License-Identifier: GPL-2.0-or-later
// DeviceLock: advisory flock on the device node.
#include "tuner/device_lock.hpp"

#include "tuner/run_error.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>

namespace disktune::tuner {

DeviceLock::DeviceLock(const std::string& device) {
  if (device.rfind("sim:", 0) == 0) return;
  fd_ = ::open(device.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) return;
  if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
  const int err = errno;
  ::close(fd_);
  fd_ = -1;
  if (err == EWOULDBLOCK) throw RunError(kExitUsage, "another disktune run is working on " + device);
}

DeviceLock::~DeviceLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace disktune::tuner
