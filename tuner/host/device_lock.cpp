// SPDX-License-Identifier: GPL-2.0-or-later
// DeviceLock: advisory flock on a lock file named by the device number.
#include "tuner/host/device_lock.hpp"

#include "probe/core/text.hpp"
#include "probe/device.hpp"
#include "tuner/host/flock_wait.hpp"
#include "tuner/run_error.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace disktune::tuner {
namespace {

// "disktune tune /dev/loop0 ..." from /proc/self/cmdline, at most 200 characters.
std::string own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && text.back() == '\0') text.pop_back();
  for (char& c : text)
    if (c == '\0') c = ' ';
  return text.substr(0, 200);
}

// The holder record written into the lock file: "PID COMMAND LINE".
void write_holder(int fd) {
  const std::string record = std::to_string(::getpid()) + " " + own_command_line() + "\n";
  if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, record.data(), record.size(), 0);
}

struct Holder {
  long pid = 0;  // 0: no record yet
  std::string command;
  bool gone = false;  // the recorded process has exited: a child of it holds the lock
};

Holder read_holder(int fd) {
  char buffer[512] = {};
  const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
  std::istringstream record(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0));
  Holder holder;
  if (!(record >> holder.pid) || holder.pid <= 0) return {};
  std::getline(record >> std::ws, holder.command);
  holder.gone = ::kill(static_cast<pid_t>(holder.pid), 0) != 0 && errno == ESRCH;
  return holder;
}

// "pid 1234 (disktune tune /dev/loop0)", from the lock file of the holder.
std::string describe(const Holder& holder) {
  if (holder.pid == 0) return "a process that has not recorded its pid yet";
  return "pid " + std::to_string(holder.pid) + " (" + holder.command + ")" +
         (holder.gone ? ", which has exited: a child of it (a trial) still holds the device" : "");
}


// True when /proc/locks lists an flock WRITE lock on the file `st` names, as in
// "1: FLOCK  ADVISORY  WRITE 1234 00:19:4242 0 EOF" (the file as hex major:minor of its
// device and its inode); a blocked waiter's line ("1: -> FLOCK ...") holds nothing.
bool flock_held(const struct stat& st) {
  char file[64];
  std::snprintf(file, sizeof file, "%02x:%02x:%llu", ::major(st.st_dev), ::minor(st.st_dev),
                static_cast<unsigned long long>(st.st_ino));
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream fields(line);
    std::string number, type, mode, access, pid, id;
    fields >> number >> type >> mode >> access >> pid >> id;
    if (type == "FLOCK" && access == "WRITE" && id == file) return true;
  }
  return false;
}

// mkdir -p of the lock directory (mode 0755); false when it cannot be made.
bool make_lock_dir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST) return true;
  if (errno != ENOENT) return false;
  const auto slash = dir.rfind('/');
  return slash != std::string::npos && slash > 0 && make_lock_dir(dir.substr(0, slash)) &&
         (::mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST);
}

struct LockFd {
  int fd = -1;
  bool holds_record = false;  // a lock file (not the device node): it carries the holder record
};

// Something at the lock path that is no lock file (a directory, a symlink, a FIFO) would send
// every command to the fallback, which only excludes commands naming the same node: two of
// them could then change one device at once. Refused instead (exit 2, naming the path).
[[noreturn]] void refuse_lock_path(const std::string& path, const std::string& why) {
  throw RunError(kExitUsage, "lock file " + path + ": " + why +
                                 " (it must be a regular file; remove it if no disktune command is running)");
}

LockFd open_lock_file(const std::string& device, dev_t number, const std::string& lock_dir) {
  if (make_lock_dir(lock_dir)) {
    const std::string path = lock_dir + "/" + probe::dev_number_text(number) + ".lock";
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd >= 0) {
      struct stat st {};
      if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) return {fd, true};
      ::close(fd);
      refuse_lock_path(path, "not a regular file");
    }
    if (errno != EACCES && errno != EPERM && errno != EROFS) refuse_lock_path(path, std::strerror(errno));
  }
  // Not root: lock the device node, which at least covers commands that use the same path.
  return {::open(device.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK), false};
}

}  // namespace

DeviceLock::DeviceLock(const std::string& device, const std::string& lock_dir) {
  if (probe::is_sim_spec(device)) return;
  struct stat st {};
  if (::stat(device.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return;
  const auto lock = open_lock_file(device, st.st_rdev, lock_dir);
  fd_ = lock.fd;
  if (fd_ < 0) return;
  if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) {
    if (lock.holds_record) write_holder(fd_);
    locked_ = st.st_rdev;
    return;
  }
  const int err = errno;
  const Holder holder = lock.holds_record ? read_holder(fd_) : Holder{};
  // Only a holder that has exited is waited for: its trial child is dying (flock_within).
  if (err == EWOULDBLOCK && holder.gone && flock_within(fd_, kOrphanWaitMs)) {
    write_holder(fd_);
    locked_ = st.st_rdev;
    return;
  }
  // Re-read: while this command waited, another may have taken the lock and written its record.
  const std::string who = lock.holds_record ? describe(read_holder(fd_)) : "another process";
  ::close(fd_);
  fd_ = -1;
  if (err == EWOULDBLOCK)
    throw RunError(kExitUsage, "device " + device + " (" + probe::dev_number_text(st.st_rdev) + ") is in use by another disktune command: " +
                                   who + "; one command per device at a time");
}

DeviceLock::~DeviceLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::string device_lock_holder(const std::string& device, const std::string& lock_dir) {
  struct stat node {};
  if (probe::is_sim_spec(device) || ::stat(device.c_str(), &node) != 0 || !S_ISBLK(node.st_mode)) return "";
  const std::string path = lock_dir + "/" + probe::dev_number_text(node.st_rdev) + ".lock";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return "";
  struct stat st {};
  const bool held = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && flock_held(st);
  const std::string who = held ? describe(read_holder(fd)) : "";
  ::close(fd);
  return who;
}

}  // namespace disktune::tuner
