// SPDX-License-Identifier: GPL-2.0-or-later
// LoopDevice: a test's own loop device over a temp file, always detached and deleted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace disktune::testing {

/// Fills the backing file's bytes before it is attached (default: fill_pattern).
using LoopFill = std::function<void(std::span<std::byte> contents)>;

/// Deterministic non-trivial content: a 64-bit xorshift stream seeded with `seed`.
void fill_pattern(std::span<std::byte> contents, std::uint64_t seed = 1);

/// 64-bit FNV-1a of `bytes`; used to check that a device's content did not change.
std::uint64_t fnv1a(std::span<const std::byte> bytes);

/// A loop device the test created (root only): a temp dir under /tmp, a file of `size_bytes`,
/// `losetup -f --show [-P]` over it. The destructor runs `losetup -d` and deletes file and
/// dir, so a failing test leaves nothing behind. Tests use only devices made this way.
class LoopDevice {
 public:
  /// Creates the file and attaches it. Returns nullptr and sets `why` when not root or
  /// when losetup fails (the caller skips with that message). `partscan` adds -P.
  static std::unique_ptr<LoopDevice> create(std::uint64_t size_bytes, std::string& why,
                                            const LoopFill& fill = {}, bool partscan = false);
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;
  ~LoopDevice();

  /// "/dev/loopN".
  [[nodiscard]] const std::string& path() const { return path_; }
  /// The backing file.
  [[nodiscard]] const std::string& file() const { return file_; }
  /// The bytes written to the backing file at creation.
  [[nodiscard]] const std::vector<std::byte>& contents() const { return contents_; }
  /// Add partition `number` (sectors [start, start + count)) with `addpart` (BLKPG), which
  /// needs no partition-table parser in the kernel; needs partscan. Returns "" or the error.
  [[nodiscard]] std::string add_partition(int number, std::uint64_t start_sector,
                                          std::uint64_t sectors) const;
  /// fnv1a of the backing file as it is now (0 and a failed REQUIRE-able read if unreadable).
  [[nodiscard]] std::uint64_t file_checksum() const;

 private:
  LoopDevice(std::string dir, std::string file, std::vector<std::byte> contents)
      : dir_(std::move(dir)), file_(std::move(file)), contents_(std::move(contents)) {}

  std::string dir_;
  std::string file_;
  std::string path_;
  std::vector<std::byte> contents_;
};

/// A loop device of `size_bytes` for a test, or nullptr after reporting the test skipped
/// ("loop device unavailable: <why>"): not root, or losetup failed. The caller returns on nullptr.
std::unique_ptr<LoopDevice> loop_device_or_skip(std::uint64_t size_bytes);

}  // namespace disktune::testing
