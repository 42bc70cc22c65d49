// SPDX-License-Identifier: GPL-2.0-or-later
// Atomic output files.
#include "tuner/output_file.hpp"

#include "tuner/run_error.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <vector>

namespace disktune::tuner {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int errnum) {
  throw RunError(kExitUsage, "cannot write " + path + ": " + what + ": " + std::strerror(errnum));
}

void write_all(int fd, const std::string& content, const std::string& path) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write", path, errno);
    done += static_cast<std::size_t>(n);
  }
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// Writes into an existing device or FIFO without replacing it.
void write_in_place(const std::string& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) fail("open", path, errno);
  try {
    write_all(fd, content, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

}  // namespace

void check_output_path(const std::string& path) {
  if (path == "-") return;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) throw RunError(kExitUsage, "cannot write " + path + ": it is a symbolic link (refused)");
    if (S_ISDIR(st.st_mode)) throw RunError(kExitUsage, "cannot write " + path + ": it is a directory");
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return;
    if (!S_ISREG(st.st_mode)) throw RunError(kExitUsage, "cannot write " + path + ": not a regular file");
  }
  const std::string dir = directory_of(path);
  if (::access(dir.c_str(), W_OK) != 0) fail("directory " + dir, path, errno);
}

void write_output(const std::string& path, const std::string& content) {
  if (path == "-") {
    std::cout << content << std::flush;
    return;
  }
  check_output_path(path);
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
    write_in_place(path, content);
    return;
  }
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string pattern = dir + "/." + base + ".XXXXXX";
  std::vector<char> temp(pattern.begin(), pattern.end());
  temp.push_back('\0');
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail("create temporary file", path, errno);
  const std::string temp_path(temp.data());
  try {
    write_all(fd, content, path);
    if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0) fail("fsync", path, errno);
  } catch (...) {
    ::close(fd);
    ::unlink(temp_path.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(temp_path.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp_path.c_str());
    fail("rename", path, err);
  }
}

}  // namespace disktune::tuner
