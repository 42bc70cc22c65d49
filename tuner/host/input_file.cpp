// SPDX-License-Identifier: GPL-2.0-or-later
// Input file checks: file type and size from stat(2).
#include "tuner/host/input_file.hpp"

#include "tuner/run_error.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace disktune::tuner {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void refuse(const std::string& option, const std::string& path, const std::string& why) {
  throw RunError(kExitUsage, option + " " + path + ": " + why);
}

void check_stat(const struct stat& st, const std::string& option, const std::string& path) {
  if (!S_ISREG(st.st_mode)) refuse(option, path, std::string("is ") + kind_of(st.st_mode) + ", not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxInputBytes)
    refuse(option, path, std::to_string(st.st_size) + " bytes, larger than any input disktune reads (at most " +
                             std::to_string(kMaxInputBytes >> 20) + " MiB)");
}

// " (a symbolic link to TARGET)" when `path` is one, so a refusal names what the link points
// at (a dangling link's "No such file or directory" is the target's); "" otherwise.
std::string link_note(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return "";
  char target[4096];
  const ssize_t n = ::readlink(path.c_str(), target, sizeof target);
  if (n < 0 || static_cast<std::size_t>(n) >= sizeof target) return " (a symbolic link)";
  return " (a symbolic link to " + std::string(target, static_cast<std::size_t>(n)) + ")";
}

// A regular file that cannot be read (EACCES for a user without read permission, EIO from a
// file such as /proc/self/mem): refused before anything else is done with it.
void check_readable(const std::string& option, const std::string& path, const std::string& named) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) refuse(option, named, std::strerror(errno));
  char byte = 0;
  const bool read_ok = ::read(fd, &byte, 1) >= 0;
  const int read_errno = errno;
  ::close(fd);
  if (!read_ok) refuse(option, named, std::strerror(read_errno));
}

// A fio:FILE objective's job file, named as given: "--objective fio:/x.fio: No such file or directory".
// Checked through one non-blocking descriptor (a FIFO swapped in after a stat() blocked the
// open), and no /proc file is read: /proc/kmsg blocks, and a read of it consumes the kernel log.
}  // namespace

void check_job_file(const std::string& name, const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) refuse("--objective", name, std::strerror(errno));
  struct stat st {};
  struct statfs fs {};
  const bool stat_ok = ::fstat(fd, &st) == 0 && ::fstatfs(fd, &fs) == 0;
  const int stat_errno = errno;
  ::close(fd);
  if (!stat_ok) refuse("--objective", name, std::strerror(stat_errno));
  check_stat(st, "--objective", name);
  if (fs.f_type == PROC_SUPER_MAGIC) refuse("--objective", name, "a /proc file is no job file");
  check_readable("--objective", path, name);
}

void check_input_file(const std::string& option, const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const std::string why = std::strerror(errno);
    refuse(option, path, why + link_note(path));
  }
  if (!S_ISREG(st.st_mode))
    refuse(option, path, std::string("is ") + kind_of(st.st_mode) + ", not a regular file" + link_note(path));
  check_stat(st, option, path);
}

void check_input_fd(int fd, const std::string& option, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) refuse(option, path, std::strerror(errno));
  check_stat(st, option, path);
}


std::optional<std::string> read_whole_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> text;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) <= kMaxInputBytes) {
    text.emplace();
    char buffer[65536];
    for (;;) {
      const auto n = ::read(fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 || text->size() + static_cast<std::size_t>(n) > kMaxInputBytes) {
        text.reset();
        break;
      }
      if (n == 0) break;
      text->append(buffer, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return text;
}

}  // namespace disktune::tuner
