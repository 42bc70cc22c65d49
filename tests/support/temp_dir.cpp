// SPDX-License-Identifier: GPL-2.0-or-later
// TempDir: mkdtemp and recursive removal.
#include "tests/support/temp_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace disktune::testing {

TempDir::TempDir(const std::string& purpose) : path_("/tmp/disktune-" + purpose + "-XXXXXX") {
  if (::mkdtemp(path_.data()) == nullptr) throw std::runtime_error("mkdtemp " + path_ + " failed");
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace disktune::testing
