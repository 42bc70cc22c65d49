// SPDX-License-Identifier: GPL-2.0-or-later
// SimBlockIo: timed, deterministic reads from a simulated drive, with its faults.
#include "probe/sim/sim_block_io.hpp"

#include "probe/sim/sim_data.hpp"
#include "probe/sim/sim_model.hpp"

#include <unistd.h>

#include <numeric>

namespace disktune::probe {
namespace {

constexpr std::uint64_t kDirectAlign = 4096;
constexpr double kFlushCostS = 100e-6;  // sync + BLKFLSBUF on an idle simulated disk
constexpr double kErrorCostS = 30e-3;   // a failed command before the driver reports EIO
constexpr double kSlowFactor = 4.0;

[[noreturn]] void hang_forever() {
  // The simulated drive never answers. The caller runs trials in a watchdog child and
  // kills it; only SIGKILL (or another fatal signal) ends this loop.
  for (;;) pause();
}

std::uint64_t total_bytes(const std::vector<ByteRange>& ranges) {
  return std::accumulate(ranges.begin(), ranges.end(), std::uint64_t{0},
                         [](std::uint64_t sum, const ByteRange& r) { return sum + r.second - r.first; });
}

class SimBlockIo final : public BlockIo {
 public:
  // Like the kernel (file_ra_state_init at open copies the queue's ra_pages into the
  // file), the readahead window is fixed when the BlockIo is opened: a readahead applied
  // later does not change this BlockIo's reads. A measurement must open after applying.
  SimBlockIo(std::shared_ptr<SimCore> core, IoMode mode)
      : core_(std::move(core)), mode_(mode), readahead_at_open_(core_->state.readahead_sectors),
        open_index_(core_->opens.next(sim_state_hash(core_->state))) {}

  Result<void> read_at(std::uint64_t offset_bytes, std::span<std::byte> buffer) override {
    const std::uint64_t size = buffer.size();
    if (mode_ == IoMode::direct &&
        (offset_bytes % kDirectAlign != 0 || size % kDirectAlign != 0 ||
         reinterpret_cast<std::uintptr_t>(buffer.data()) % kDirectAlign != 0))
      return errno_error(EINVAL, "pread O_DIRECT (offset, size and buffer must be 4096-aligned)",
                         core_->path);
    if (offset_bytes > core_->size_bytes || size > core_->size_bytes - offset_bytes)
      return Error{std::make_error_code(std::errc::io_error),
                   "pread " + std::to_string(size) + " bytes at " + std::to_string(offset_bytes) +
                       ": short read past the end of the device",
                   core_->path};
    const ByteRange range{offset_bytes, offset_bytes + size};
    const auto uncached = mode_ == IoMode::buffered ? core_->page_cache.missing(range)
                                                    : std::vector<ByteRange>{range};
    const Settings settings = sim_settings(core_->state);
    if (!uncached.empty()) {
      if (has_fault(core_->profile, FaultEffect::hang, settings)) hang_forever();
      if (has_fault(core_->profile, FaultEffect::eio, settings)) return fail_eio(settings);
    }
    fill_sim_data(offset_bytes, buffer);
    if (has_fault(core_->profile, FaultEffect::corrupt, settings))
      for (const auto& [begin, end] : uncached)
        corrupt_sim_data(begin, buffer.subspan(begin - offset_bytes, end - begin));
    core_->clock.advance(read_time(uncached, size, settings));
    if (mode_ == IoMode::buffered) core_->page_cache.insert(range);
    ++reads_;
    return {};
  }

  Result<void> flush_cache() override {
    core_->page_cache.flush();
    core_->clock.advance(Seconds(kFlushCostS));
    ++epoch_;
    return {};
  }

  // posix_fadvise DONTNEED on the range: those pages leave the simulated page cache.
  Result<void> drop_cached(std::uint64_t offset_bytes, std::uint64_t length_bytes) override {
    core_->page_cache.drop({offset_bytes, offset_bytes + length_bytes});
    return {};
  }

  // The model completes every read inside read_at: nothing is ever left in flight.
  Result<Seconds> settle(Seconds) override { return Seconds{0.0}; }
  std::optional<std::uint64_t> completed_bytes() override { return std::nullopt; }

  [[nodiscard]] std::uint64_t size_bytes() const override { return core_->size_bytes; }
  Clock& clock() override { return core_->clock; }

 private:
  Error fail_eio(const Settings& settings) {
    core_->clock.advance(Seconds(kErrorCostS));
    ++reads_;
    return errno_error(EIO, "pread [simulated eio fault: " + format_settings(settings) + "]",
                       core_->path);
  }

  Seconds read_time(const std::vector<ByteRange>& uncached, std::uint64_t size,
                           const Settings& settings) {
    const std::uint64_t drive_bytes = total_bytes(uncached);
    Seconds time = cached_read_time(size - drive_bytes);
    if (drive_bytes > 0) {
      const bool sequential = uncached.front().first == core_->head_bytes;
      SimState in_force = core_->state;  // every setting as now, readahead as at open
      in_force.readahead_sectors = readahead_at_open_;
      Seconds drive = uncached_read_time(in_force, fastest_pio_code(core_->limits),
                                                core_->media_mib_s, drive_bytes, mode_, sequential);
      if (has_fault(core_->profile, FaultEffect::slow, settings)) drive *= kSlowFactor;
      time += drive;
      core_->head_bytes = uncached.back().second;
    }
    // The open's ordinal among the opens under the same settings keeps the samples of
    // successive opens of one configuration (the confirmation round opens once per sample)
    // as independent as successive samples of one open, and noise independent of the order
    // in which configurations are measured.
    const std::uint64_t sample = epoch_ ^ (open_index_ << 40);
    return time * noise_factor(core_->seed, core_->state, sample, reads_, core_->profile.noise_pct);
  }

  std::shared_ptr<SimCore> core_;
  IoMode mode_;
  int readahead_at_open_;    // sectors: the file's readahead window, fixed at open
  std::uint64_t open_index_;  // BlockIos opened before this one under the same settings
  std::uint64_t epoch_ = 0;  // flush_cache() calls: the sample number
  std::uint64_t reads_ = 0;  // read_at() calls
};

}  // namespace

std::unique_ptr<BlockIo> make_sim_block_io(std::shared_ptr<SimCore> core, IoMode mode) {
  return std::make_unique<SimBlockIo>(std::move(core), mode);
}

}  // namespace disktune::probe
