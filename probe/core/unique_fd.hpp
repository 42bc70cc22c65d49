// SPDX-License-Identifier: GPL-2.0-or-later
// UniqueFd: RAII owner of one file descriptor (closed in the destructor).
#pragma once

#include <unistd.h>

#include <utility>

namespace disktune::probe {

/// Owns a file descriptor; -1 means none. Move-only; the destructor closes it
/// (close errors are ignored: nothing is ever written through these descriptors).
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  /// The descriptor, or -1.
  [[nodiscard]] int get() const { return fd_; }
  /// True when a descriptor is held.
  explicit operator bool() const { return fd_ >= 0; }
  /// Close the held descriptor, if any.
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

}  // namespace disktune::probe
