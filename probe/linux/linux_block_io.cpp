// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxBlockIo: pread loop, BLKFLSBUF with a posix_fadvise fallback, range drops, BLKGETSIZE64.
#include "probe/linux/linux_block_io.hpp"

#include "probe/core/assert.hpp"
#include "probe/core/unique_fd.hpp"
#include "probe/linux/read_accounting.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

namespace disktune::probe {
namespace {

constexpr std::uint64_t kDirectAlign = 4096;

class LinuxBlockIo final : public BlockIo {
 public:
  LinuxBlockIo(std::string path, UniqueFd fd, IoMode mode, std::uint64_t size_bytes)
      : path_(std::move(path)), fd_(std::move(fd)), mode_(mode), size_bytes_(size_bytes) {
    struct stat st{};
    if (::fstat(fd_.get(), &st) != 0) return;
    device_number_ = st.st_rdev;
    if (auto mark = mark_reads(device_number_)) mark_ = *mark;  // else settle() does not wait
  }

  Result<void> read_at(std::uint64_t offset_bytes, std::span<std::byte> buffer) override {
    if (mode_ == IoMode::direct) {
      DT_ASSERT(offset_bytes % kDirectAlign == 0 && buffer.size() % kDirectAlign == 0);
      DT_ASSERT(reinterpret_cast<std::uintptr_t>(buffer.data()) % kDirectAlign == 0);
    }
    std::size_t done = 0;
    while (done < buffer.size()) {
      const ssize_t got = ::pread(fd_.get(), buffer.data() + done, buffer.size() - done,
                                  static_cast<off_t>(offset_bytes + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return errno_error(errno, "pread", path_);
      if (got == 0)
        return Error{std::make_error_code(std::errc::io_error),
                     "pread: short read (" + std::to_string(done) + " of " +
                         std::to_string(buffer.size()) + " bytes at offset " +
                         std::to_string(offset_bytes) + ")",
                     path_};
      done += static_cast<std::size_t>(got);
    }
    return {};
  }

  Result<void> flush_cache() override {
    if (::ioctl(fd_.get(), BLKFLSBUF, 0) == 0) return {};
    const int flush_errno = errno;
    if (flush_errno != EACCES && flush_errno != EPERM && flush_errno != ENOTTY)
      return errno_error(flush_errno, "ioctl(BLKFLSBUF)", path_);
    // Without CAP_SYS_ADMIN, drop this file's clean pages instead (no write-back needed:
    // nothing is written through this descriptor).
    const int advise = ::posix_fadvise(fd_.get(), 0, 0, POSIX_FADV_DONTNEED);
    if (advise != 0) return errno_error(advise, "posix_fadvise(POSIX_FADV_DONTNEED)", path_);
    return {};
  }

  Result<void> drop_cached(std::uint64_t offset_bytes, std::uint64_t length_bytes) override {
    const int advise = ::posix_fadvise(fd_.get(), static_cast<off_t>(offset_bytes),
                                       static_cast<off_t>(length_bytes), POSIX_FADV_DONTNEED);
    if (advise != 0) return errno_error(advise, "posix_fadvise(POSIX_FADV_DONTNEED range)", path_);
    return {};
  }

  Result<Seconds> settle(Seconds bound) override {
    if (!mark_) return Seconds{0.0};
    return wait_for_reads(device_number_, *mark_, bound);
  }

  std::optional<std::uint64_t> completed_bytes() override {
    if (!mark_) return std::nullopt;
    auto now = mark_reads(device_number_);
    if (!now) return std::nullopt;
    const std::uint64_t completed = now->completed_bytes - mark_->completed_bytes;
    const std::uint64_t submitted = now->submitted_bytes - mark_->submitted_bytes;
    // More completed than this process ever submitted: another reader is at the device, and
    // its completions cannot be told from ours (nor ours still held by a throttle).
    if (completed > submitted) return std::nullopt;
    return completed;
  }

  [[nodiscard]] std::uint64_t size_bytes() const override { return size_bytes_; }
  Clock& clock() override { return clock_; }

 private:
  std::string path_;
  UniqueFd fd_;
  IoMode mode_;
  std::uint64_t size_bytes_;
  std::uint64_t device_number_ = 0;
  std::optional<ReadMark> mark_;  // empty: the counters could not be read at open; no waits
  SteadyClock clock_;
};

}  // namespace

Result<std::unique_ptr<BlockIo>> open_linux_block_io(const std::string& path, IoMode mode, const std::string& shown) {
  const std::string& name = shown.empty() ? path : shown;
  const int flags = O_RDONLY | O_CLOEXEC | (mode == IoMode::direct ? O_DIRECT : 0);
  UniqueFd fd(::open(path.c_str(), flags));
  if (!fd) return errno_error(errno, mode == IoMode::direct ? "open O_DIRECT" : "open", name);
  std::uint64_t size_bytes = 0;
  if (::ioctl(fd.get(), BLKGETSIZE64, &size_bytes) != 0)
    return errno_error(errno, "ioctl(BLKGETSIZE64)", name);
  return std::unique_ptr<BlockIo>(
      std::make_unique<LinuxBlockIo>(name, std::move(fd), mode, size_bytes));
}

}  // namespace disktune::probe
