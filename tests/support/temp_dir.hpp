// SPDX-License-Identifier: GPL-2.0-or-later
// TempDir: a test's own directory under /tmp, removed with everything in it.
#pragma once

#include <string>

namespace disktune::testing {

/// mkdtemp("/tmp/disktune-<purpose>-XXXXXX"); the destructor removes the tree. Throws
/// std::runtime_error when the directory cannot be made.
class TempDir {
 public:
  explicit TempDir(const std::string& purpose);
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();

  /// The directory; `path() + "/name"` for files in it.
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace disktune::testing
