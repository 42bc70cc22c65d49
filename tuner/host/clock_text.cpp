// SPDX-License-Identifier: GPL-2.0-or-later
// Timestamps and the kernel release.
#include "tuner/host/clock_text.hpp"

#include <sys/utsname.h>

#include <ctime>

namespace disktune::tuner {

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string kernel_release() {
  utsname name{};
  return uname(&name) == 0 ? name.release : "unknown";
}

}  // namespace disktune::tuner
