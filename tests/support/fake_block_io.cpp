// SPDX-License-Identifier: GPL-2.0-or-later
// FakeBlockIo: pattern data, virtual-clock timing, a page-cache model and injected failures.
#include "tests/support/fake_block_io.hpp"

#include "probe/core/assert.hpp"

#include <cstdint>
#include <system_error>

namespace disktune::testing {
namespace {

constexpr const char* kPath = "fake-block-io (simulated)";
constexpr std::uint64_t kPageBytes = 4096;
constexpr double kMibBytes = 1024.0 * 1024.0;

bool direct_aligned(std::uint64_t offset_bytes, std::span<std::byte> buffer) {
  const auto address = reinterpret_cast<std::uintptr_t>(buffer.data());
  return offset_bytes % kPageBytes == 0 && buffer.size() % kPageBytes == 0 &&
         address % kPageBytes == 0;
}

}  // namespace

std::byte fake_pattern_byte(std::uint64_t offset_bytes) {
  const std::uint64_t mixed = offset_bytes ^ ((offset_bytes >> 8) * 7) ^ ((offset_bytes >> 12) * 13);
  return static_cast<std::byte>(mixed & 0xffu);
}

FakeBlockIo::FakeBlockIo(FakeBlockIoConfig config) : config_(config) {
  DT_ASSERT(config_.disk_mib_s > 0.0);
  DT_ASSERT(!config_.cached_mib_s || *config_.cached_mib_s > 0.0);
}

probe::Result<void> FakeBlockIo::read_at(std::uint64_t offset_bytes,
                                         std::span<std::byte> buffer) {
  const std::size_t index = reads_++;
  events_.push_back({FakeIoEvent::Kind::read, offset_bytes, buffer.size(), buffer.data()});
  if (config_.fail_read_index == index) {
    return probe::errno_error(config_.fail_errno, "pread", kPath);
  }
  if (config_.mode == probe::IoMode::direct && !direct_aligned(offset_bytes, buffer)) {
    return probe::errno_error(EINVAL, "pread", kPath);
  }
  if (offset_bytes > config_.size_bytes || config_.size_bytes - offset_bytes < buffer.size()) {
    return probe::Error{std::make_error_code(std::errc::io_error), "pread (short read)", kPath};
  }
  for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = fake_pattern_byte(offset_bytes + i);
  std::uint64_t fill_bytes = 0;
  if (offset_bytes != next_offset_) {
    wait_in_flight();
    fill_bytes = config_.readahead_bytes;
  }
  in_flight_bytes_ = config_.readahead_bytes;
  next_offset_ = offset_bytes + buffer.size();
  completed_bytes_ += buffer.size() + fill_bytes;
  clock_.advance(probe::Seconds{static_cast<double>(fill_bytes) / kMibBytes / config_.disk_mib_s});
  clock_.advance(probe::Seconds{static_cast<double>(buffer.size()) / kMibBytes /
                                rate_for(offset_bytes, buffer.size())});
  cached_.emplace(offset_bytes, buffer.size());
  return {};
}

probe::Result<void> FakeBlockIo::flush_cache() {
  const std::size_t index = flushes_++;
  events_.push_back({FakeIoEvent::Kind::flush, 0, 0, nullptr});
  if (config_.fail_flush_index == index) {
    return probe::errno_error(config_.fail_errno, "ioctl(BLKFLSBUF)", kPath);
  }
  cached_.clear();
  clock_.advance(config_.flush_cost);
  return {};
}

probe::Result<void> FakeBlockIo::drop_cached(std::uint64_t offset_bytes, std::uint64_t length_bytes) {
  events_.push_back({FakeIoEvent::Kind::drop, offset_bytes, length_bytes, nullptr});
  std::erase_if(cached_, [&](const auto& read) {
    return read.first >= offset_bytes && read.first + read.second <= offset_bytes + length_bytes;
  });
  return {};
}

probe::Result<probe::Seconds> FakeBlockIo::settle(probe::Seconds) {
  events_.push_back({FakeIoEvent::Kind::settle, 0, 0, nullptr});
  completed_bytes_ = 0;
  return wait_in_flight();
}

std::optional<std::uint64_t> FakeBlockIo::completed_bytes() {
  if (config_.readahead_bytes == 0) return std::nullopt;
  return completed_bytes_;
}

probe::Seconds FakeBlockIo::wait_in_flight() {
  const probe::Seconds wait{static_cast<double>(in_flight_bytes_) / kMibBytes / config_.disk_mib_s};
  clock_.advance(wait);
  in_flight_bytes_ = 0;
  return wait;
}

std::vector<std::uint64_t> FakeBlockIo::read_offsets() const {
  std::vector<std::uint64_t> offsets;
  for (const FakeIoEvent& event : events_) {
    if (event.kind == FakeIoEvent::Kind::read) offsets.push_back(event.offset_bytes);
  }
  return offsets;
}

double FakeBlockIo::rate_for(std::uint64_t offset_bytes, std::uint64_t length_bytes) const {
  const bool cache_model = config_.cached_mib_s && config_.mode == probe::IoMode::buffered;
  if (cache_model && cached_.contains({offset_bytes, length_bytes})) return *config_.cached_mib_s;
  return config_.disk_mib_s;
}

}  // namespace disktune::testing
