// SPDX-License-Identifier: GPL-2.0-or-later
// lock_install_root (install_lock.hpp).
#include "tuner/keep/install_lock.hpp"

#include "tuner/host/device_lock.hpp"
#include "tuner/host/flock_wait.hpp"
#include "tuner/journal/journal_file.hpp"
#include "tuner/run_error.hpp"

#include <fcntl.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace disktune::tuner {

probe::UniqueFd lock_install_root(const std::string& root, const char* command) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto resolved = fs::weakly_canonical(fs::absolute(root, ec), ec).string();
  auto key = unique_journal_key("install-", resolved);  // readable tail and a hash of the whole path
  for (char& c : key)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  fs::create_directories(host().lock_dir, ec);
  const auto path = host().lock_dir + "/" + key + ".lock";
  probe::UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd || !flock_within(fd.get(), 10000))
    throw RunError(kExitUsage, std::string(command) + ": cannot take " + path + " for " + resolved + " (" +
                               std::strerror(errno) + "): another install or uninstall into it may be running; "
                               "try again when it is done");
  return fd;
}

}  // namespace disktune::tuner
