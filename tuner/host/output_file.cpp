// SPDX-License-Identifier: GPL-2.0-or-later
// Atomic output files; devices and FIFOs written in place with a bounded wait.
#include "tuner/host/output_file.hpp"

#include "probe/linux/device_names.hpp"
#include "tuner/run_error.hpp"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>
#include <vector>

namespace disktune::tuner {
namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string& what, const std::string& path, int errnum) {
  throw RunError(kExitUsage, "cannot write " + path + ": " + what + ": " + std::strerror(errnum));
}

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw RunError(kExitUsage, "cannot write " + path + ": " + why);
}

int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

// Writes everything; a non-blocking descriptor (a FIFO, a device) waits for room at most
// kInPlaceWait without progress, so a reader that stops reading cannot hang the run.
void write_all(int fd, const std::string& content, const std::string& path) {
  std::size_t done = 0;
  auto deadline = Clock::now() + kInPlaceWait;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      pollfd ready{fd, POLLOUT, 0};
      if (::poll(&ready, 1, remaining_ms(deadline)) == 0)
        refuse(path, "the reader stopped reading (no progress for " + std::to_string(kInPlaceWait.count()) + " s)");
      continue;
    }
    if (n < 0) fail("write", path, errno);
    done += static_cast<std::size_t>(n);
    deadline = Clock::now() + kInPlaceWait;
  }
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "DIR/.BASE.XXXXXX" for mkstemp; BASE shortened so the name fits NAME_MAX whenever BASE does.
std::vector<char> temp_pattern(const std::string& path) {
  const std::string pattern = directory_of(path) + "/." + base_of(path).substr(0, NAME_MAX - 8) + ".XXXXXX";
  std::vector<char> temp(pattern.begin(), pattern.end());
  temp.push_back('\0');
  return temp;
}

// Whether `name` is one temp_pattern made for `base`: "." + BASE (shortened) + "." + 6 characters.
bool temporary_of(const std::string& name, const std::string& base) {
  const std::string stem = "." + base.substr(0, NAME_MAX - 8) + ".";
  return name.size() == stem.size() + 6 && name.compare(0, stem.size(), stem) == 0;
}

// Opens an existing FIFO or device for writing without blocking: a FIFO with no reader
// (ENXIO) is retried for kInPlaceWait, then refused.
int open_in_place(const std::string& path) {
  const auto deadline = Clock::now() + kInPlaceWait;
  for (;;) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) return fd;
    if (errno != ENXIO) fail("open", path, errno);
    if (remaining_ms(deadline) == 0)
      refuse(path, "no process reads this FIFO (waited " + std::to_string(kInPlaceWait.count()) + " s)");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// Writes into an existing device or FIFO without replacing it.
void write_in_place(const std::string& path, const std::string& content) {
  const int fd = open_in_place(path);
  try {
    write_all(fd, content, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

// Creating (then removing) the temporary file and, for a new name, the file itself is the
// only sure check: /proc and /sys refuse new files although access(W_OK) says yes to root,
// and a name can be too long for the file system.
void try_create(const std::string& path, bool exists) {
  auto temp = temp_pattern(path);
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    const int error = errno;
    // /proc and /sys refuse a new file with ENOENT: "directory /proc/self: No such file or
    // directory" read as if the directory were missing.
    struct stat info {};
    const std::string directory = directory_of(path);
    const bool there = ::stat(directory.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
    fail("directory " + directory + (there ? " takes no new file" : ""), path, error);
  }
  ::close(fd);
  ::unlink(temp.data());
  if (exists) return;
  const int created = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (created < 0) fail("create", path, errno);
  ::close(created);
  ::unlink(path.c_str());
}

// The kernel interface file systems `path` may be on: their files are settings and state,
// never an output (a report over /sys/block/X/queue/read_ahead_kb would write a setting).
// nullopt on any other file system. Source: statfs(2), linux/magic.h.
std::optional<std::string> kernel_interface(const std::string& path) {
  struct statfs fs {};
  if (::statfs(path.c_str(), &fs) != 0) return std::nullopt;
  switch (static_cast<unsigned long>(fs.f_type)) {
    case PROC_SUPER_MAGIC: return "procfs";
    case SYSFS_MAGIC: return "sysfs";
    case CGROUP_SUPER_MAGIC: case CGROUP2_SUPER_MAGIC: return "cgroup";
    case DEBUGFS_MAGIC: return "debugfs";
    case TRACEFS_MAGIC: return "tracefs";
    case SECURITYFS_MAGIC: return "securityfs";
    case BPF_FS_MAGIC: return "bpf";
    default: return std::nullopt;
  }
}

// Why `path` is no output, when it is on a kernel interface file system: one text for
// every refusal ("a procfs file (a kernel interface), not one to write to").
std::optional<std::string> kernel_interface_reason(const std::string& path) {
  const auto fs = kernel_interface(path);
  if (!fs) return std::nullopt;
  return "a " + *fs + " file (a kernel interface), not one to write to";
}

}  // namespace

void refuse_kernel_interface(const std::string& option, const std::string& path) {
  // A new name is judged by the directory it would go in (a file the kernel lists there may appear later).
  const std::string where = ::access(path.c_str(), F_OK) == 0 ? path : directory_of(path);
  if (const auto why = kernel_interface_reason(where)) throw RunError(kExitUsage, option + " " + path + ": " + *why);
}

void refuse_disk_image(const std::string& path, const struct stat& st) {
  if (!S_ISREG(st.st_mode)) return;
  if (const auto loops = probe::loops_backed_by(st.st_dev, st.st_ino); !loops.empty())
    throw RunError(kExitUsage, path + ": it backs /dev/" + loops.front() + " (a disk image in use): disktune never "
                               "writes over it; name another file");
}

void check_output_path(const std::string& path) {
  if (path == "-") return;
  if (path.empty()) refuse(path, "empty file name");
  if (path.size() >= PATH_MAX) fail("name", path, ENAMETOOLONG);
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) fail("stat", path, errno);
    try_create(path, false);
    return;
  }
  if (S_ISLNK(st.st_mode)) refuse(path, "it is a symbolic link (refused)");
  if (S_ISDIR(st.st_mode)) refuse(path, "it is a directory");
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
    if (::access(path.c_str(), W_OK) != 0) fail("access", path, errno);
    return;
  }
  if (!S_ISREG(st.st_mode)) refuse(path, "not a regular file");
  if (const auto why = kernel_interface_reason(path)) refuse(path, *why);
  refuse_disk_image(path, st);
  try_create(path, true);
}

void write_output(const std::string& path, const std::string& content) {
  if (path == "-") {
    if (!(std::cout << content << std::flush)) refuse("standard output", "closed or full");
    return;
  }
  check_output_path(path);
  struct stat st {};
  const bool found = ::lstat(path.c_str(), &st) == 0;
  if (found && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
    write_in_place(path, content);
    return;
  }
  // A file replaced keeps its mode and owner (an hdparm.conf of 0640 root:disk stays so); a new one is 0644.
  const bool replacing = found && S_ISREG(st.st_mode);
  auto temp = temp_pattern(path);
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail("create temporary file", path, errno);
  const std::string temp_path(temp.data());
  try {
    write_all(fd, content, path);
    if (::fchmod(fd, replacing ? st.st_mode & 07777 : 0644) != 0) fail("chmod", path, errno);
    // Only root can give the file back to its owner: anyone else's replacement is theirs, as before.
    if (replacing && ::geteuid() == 0 && (st.st_uid != 0 || st.st_gid != 0) && ::fchown(fd, st.st_uid, st.st_gid) != 0)
      fail("chown", path, errno);
    if (::fsync(fd) != 0) fail("fsync", path, errno);
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

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !S_ISCHR(sa.st_mode);
  std::error_code ea, eb;
  const auto ca = std::filesystem::weakly_canonical(a, ea);
  const auto cb = std::filesystem::weakly_canonical(b, eb);
  return ea || eb ? a == b : ca == cb;
}

std::vector<std::string> remove_stale_temporaries(const std::string& path, std::chrono::seconds older_than) {
  namespace fs = std::filesystem;
  std::vector<std::string> removed;
  const auto base = base_of(path);
  const auto cutoff = fs::file_time_type::clock::now() - older_than;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(directory_of(path), ec)) {
    const auto name = entry.path().filename().string();
    if (!temporary_of(name, base) || !entry.is_regular_file(ec) || entry.is_symlink(ec)) continue;
    const auto changed = fs::last_write_time(entry.path(), ec);
    if (ec || changed > cutoff) continue;
    if (fs::remove(entry.path(), ec)) removed.push_back(entry.path().string());
  }
  return removed;
}

}  // namespace disktune::tuner
