// SPDX-License-Identifier: GPL-2.0-or-later
// hdparm -T / -t style measurements against the simulated FakeBlockIo on virtual time.
#include "bench/benchmark.hpp"

#include "tests/support/fake_block_io.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <span>
#include <system_error>
#include <utility>
#include <vector>

using namespace disktune;
using bench::Method;
using probe::Seconds;
using bench::Workload;
using testing::FakeBlockIo;
using testing::FakeBlockIoConfig;
using testing::FakeIoEvent;

namespace {

constexpr std::uint64_t kMib = 1u << 20;

Workload workload(Method method, std::uint64_t chunk_bytes, double seconds,
                  std::uint64_t offset_bytes = 0) {
  Workload w;
  w.method = method;
  w.chunk_bytes = chunk_bytes;
  w.duration = Seconds{seconds};
  w.offset_bytes = offset_bytes;
  return w;
}

}  // namespace

TEST_CASE("to_string names both methods", "[bench]") {
  REQUIRE(bench::to_string(Method::cached) == "cached");
  REQUIRE(bench::to_string(Method::buffered) == "buffered");
}

TEST_CASE("buffered reads measure the device rate in MiB/s", "[bench]") {
  const double rate = GENERATE(12.5, 50.0, 160.0);
  FakeBlockIo io({.size_bytes = 1024 * kMib, .disk_mib_s = rate, .cached_mib_s = 5000.0});
  auto sample = bench::run_sample(io, workload(Method::buffered, kMib, 1.0));
  REQUIRE(sample);
  REQUIRE(sample->value == Approx(rate).epsilon(1e-9));
  // Every read is one whole chunk; bytes and elapsed agree with the rate.
  REQUIRE(sample->bytes == io.read_count() * kMib);
  REQUIRE(sample->elapsed.count() ==
          Approx(static_cast<double>(sample->bytes) / kMib / rate).epsilon(1e-9));
}

TEST_CASE("every buffered sample starts with a flush and reads sequentially from the offset",
          "[bench]") {
  FakeBlockIo io({.size_bytes = 256 * kMib, .disk_mib_s = 40.0, .cached_mib_s = 4000.0});
  const Workload w = workload(Method::buffered, 2 * kMib, 0.5, 8 * kMib);
  auto samples = bench::run_samples(io, w, 4);
  REQUIRE(samples);
  REQUIRE(samples->size() == 4);
  REQUIRE(io.flush_count() == 4);
  // Without the flush the 2nd..4th samples would be served at the cached rate.
  for (const bench::Sample& sample : *samples) REQUIRE(sample.value == Approx(40.0));

  std::uint64_t expected_offset = 0;
  for (const FakeIoEvent& event : io.events()) {
    if (event.kind == FakeIoEvent::Kind::flush) {
      expected_offset = w.offset_bytes;
      continue;
    }
    if (event.kind == FakeIoEvent::Kind::settle) continue;
    REQUIRE(event.offset_bytes == expected_offset);
    REQUIRE(event.length_bytes == w.chunk_bytes);
    expected_offset += w.chunk_bytes;
  }
  REQUIRE(io.events().front().kind == FakeIoEvent::Kind::flush);
}

TEST_CASE("cached reads prime one chunk and re-read it without flushing", "[bench]") {
  FakeBlockIo io({.size_bytes = 64 * kMib, .disk_mib_s = 30.0, .cached_mib_s = 256.0});
  const Workload w = workload(Method::cached, 2 * kMib, 2.0, 6 * kMib);
  auto sample = bench::run_sample(io, w);
  REQUIRE(sample);
  REQUIRE(io.flush_count() == 0);
  const std::vector<std::uint64_t> offsets = io.read_offsets();
  REQUIRE(offsets.size() >= 3);
  for (std::uint64_t offset : offsets) REQUIRE(offset == 6 * kMib);
  // The priming read (at disk rate) is not timed: the sample is pure cache bandwidth.
  REQUIRE(sample->value == Approx(256.0).epsilon(1e-9));
  REQUIRE(sample->bytes == (offsets.size() - 1) * w.chunk_bytes);
}

TEST_CASE("buffered reads wrap to the offset at the device end, flushing first", "[bench]") {
  // Offset 1 MiB, 1 MiB chunks, 8.5 MiB device: 7 whole chunks per pass, the 0.5 MiB tail
  // is never read. Reads at 8 MiB/s take 0.125 s, each wrap flush 0.25 s, both timed:
  // 7 reads (0.875 s), flush, 7 reads (2.0 s), flush, 1 read: 2.375 s >= 2.2 s.
  FakeBlockIo io({.size_bytes = 8 * kMib + kMib / 2,
                  .disk_mib_s = 8.0,
                  .cached_mib_s = 1000.0,
                  .flush_cost = Seconds{0.25}});
  auto sample = bench::run_sample(io, workload(Method::buffered, kMib, 2.2, kMib));
  REQUIRE(sample);
  std::vector<std::uint64_t> expected;
  for (int pass_reads : {7, 7, 1}) {
    for (int i = 0; i < pass_reads; ++i) expected.push_back(kMib + std::uint64_t(i) * kMib);
  }
  REQUIRE(io.read_offsets() == expected);
  REQUIRE(io.flush_count() == 3);  // before the sample and before each of the 2 wraps
  // Wrapped reads come from the "disk" (8 MiB/s, not the cache's 1000); the wrap flushes
  // are timed, as fio times its invalidation; the flush before the sample is not.
  REQUIRE(sample->elapsed.count() == Approx(15 * 0.125 + 2 * 0.25).epsilon(1e-9));
  REQUIRE(sample->value == Approx(15.0 / 2.375).epsilon(1e-9));
  REQUIRE(io.virtual_clock().now().count() == Approx(0.25 + 2.375).epsilon(1e-9));
}

TEST_CASE("the duration is honoured on the virtual clock", "[bench]") {
  const Method method = GENERATE(Method::cached, Method::buffered);
  // One 1 MiB read takes 0.3 s: 2.5 s needs 9 reads (2.7 s), never 8 (2.4 s).
  FakeBlockIo io({.size_bytes = 64 * kMib, .disk_mib_s = 1.0 / 0.3, .cached_mib_s = 1.0 / 0.3});
  auto sample = bench::run_sample(io, workload(method, kMib, 2.5));
  REQUIRE(sample);
  REQUIRE(sample->elapsed.count() == Approx(2.7).epsilon(1e-9));
  REQUIRE(sample->bytes == 9 * kMib);
}

TEST_CASE("read and flush errors propagate with their errno", "[bench]") {
  SECTION("a read error in the second sample stops run_samples") {
    FakeBlockIo io({.size_bytes = 64 * kMib, .disk_mib_s = 8.0, .fail_read_index = 12});
    // 1 MiB at 8 MiB/s = 0.125 s; 1 s = 8 reads per sample, so read 12 is in sample 2.
    auto samples = bench::run_samples(io, workload(Method::buffered, kMib, 1.0), 5);
    REQUIRE_FALSE(samples);
    REQUIRE(samples.error().code == std::error_code(EIO, std::generic_category()));
    REQUIRE(samples.error().op == "pread");
    REQUIRE(io.read_count() == 13);
    REQUIRE(io.flush_count() == 2);
  }
  SECTION("a failing priming read of a cached sample") {
    FakeBlockIo io({.fail_read_index = 0, .fail_errno = ENXIO});
    auto sample = bench::run_sample(io, workload(Method::cached, kMib, 1.0));
    REQUIRE_FALSE(sample);
    REQUIRE(sample.error().code.value() == ENXIO);
    REQUIRE(io.read_count() == 1);
  }
  SECTION("a failing flush before a buffered sample means no reads") {
    FakeBlockIo io({.fail_flush_index = 0, .fail_errno = ENOTTY});
    auto sample = bench::run_sample(io, workload(Method::buffered, kMib, 1.0));
    REQUIRE_FALSE(sample);
    REQUIRE(sample.error().op == "ioctl(BLKFLSBUF)");
    REQUIRE(sample.error().is_unsupported());
    REQUIRE(io.read_count() == 0);
  }
}

TEST_CASE("a device smaller than one chunk from the offset is invalid_argument", "[bench]") {
  const Method method = GENERATE(Method::cached, Method::buffered);
  FakeBlockIo io({.size_bytes = 3 * kMib});
  const auto [chunk, offset] = GENERATE(table<std::uint64_t, std::uint64_t>(
      {{4 * kMib, 0}, {2 * kMib, 2 * kMib}, {kMib, 5 * kMib}}));
  auto sample = bench::run_sample(io, workload(method, chunk, 1.0, offset));
  REQUIRE_FALSE(sample);
  REQUIRE(sample.error().code == std::make_error_code(std::errc::invalid_argument));
  REQUIRE(io.events().empty());
}

TEST_CASE("the read buffer is page-aligned and reused, so O_DIRECT devices work", "[bench]") {
  const Method method = GENERATE(Method::cached, Method::buffered);
  FakeBlockIo io({.size_bytes = 16 * kMib, .disk_mib_s = 100.0, .mode = probe::IoMode::direct});
  auto sample = bench::run_sample(io, workload(method, 2 * kMib, 0.5));
  REQUIRE(sample);
  REQUIRE(sample->value == Approx(100.0).epsilon(1e-9));
  const auto first_read = std::find_if(io.events().begin(), io.events().end(), [](const FakeIoEvent& e) {
    return e.kind == FakeIoEvent::Kind::read;
  });
  REQUIRE(first_read != io.events().end());
  const std::byte* first = first_read->buffer;
  REQUIRE(reinterpret_cast<std::uintptr_t>(first) % 4096 == 0);
  for (const FakeIoEvent& event : io.events()) {
    if (event.kind == FakeIoEvent::Kind::read) REQUIRE(event.buffer == first);
  }
}

TEST_CASE("the fake returns its pattern and rejects misaligned direct reads", "[bench]") {
  FakeBlockIo io({.size_bytes = kMib, .mode = probe::IoMode::direct});
  alignas(4096) std::byte page[4096];
  REQUIRE(io.read_at(8192, page));
  REQUIRE(page[0] == testing::fake_pattern_byte(8192));
  REQUIRE(page[4095] == testing::fake_pattern_byte(8192 + 4095));
  REQUIRE(page[1] != page[0]);
  REQUIRE(testing::fake_pattern_byte(0) != testing::fake_pattern_byte(256));
  REQUIRE(testing::fake_pattern_byte(0) != testing::fake_pattern_byte(4096));
  auto misaligned = io.read_at(512, page);
  REQUIRE_FALSE(misaligned);
  REQUIRE(misaligned.error().code.value() == EINVAL);
  auto past_end = io.read_at(kMib, page);
  REQUIRE_FALSE(past_end);
  REQUIRE(past_end.error().code == std::make_error_code(std::errc::io_error));
}

namespace {

// A FakeBlockIo wrapper whose drop_cached calls are listed, each costing `drop_cost` on the
// clock, the `fail_drop`-th failing (EBADF).
class DroppingBlockIo final : public probe::BlockIo {
 public:
  DroppingBlockIo(FakeBlockIoConfig config, Seconds drop_cost, std::optional<std::size_t> fail_drop = {})
      : fake_(std::move(config)), drop_cost_(drop_cost), fail_drop_(fail_drop) {}
  probe::Result<void> read_at(std::uint64_t offset, std::span<std::byte> buffer) override {
    return fake_.read_at(offset, buffer);
  }
  probe::Result<void> flush_cache() override { return fake_.flush_cache(); }
  probe::Result<void> drop_cached(std::uint64_t offset, std::uint64_t length) override {
    if (fail_drop_ == drops_.size())
      return probe::Error{std::error_code(EBADF, std::generic_category()), "posix_fadvise", "fake"};
    drops_.emplace_back(offset, length);
    fake_.virtual_clock().advance(drop_cost_);
    return {};
  }
  probe::Result<Seconds> settle(Seconds bound) override { return fake_.settle(bound); }
  std::optional<std::uint64_t> completed_bytes() override { return fake_.completed_bytes(); }
  [[nodiscard]] std::uint64_t size_bytes() const override { return fake_.size_bytes(); }
  probe::Clock& clock() override { return fake_.clock(); }

  FakeBlockIo fake_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> drops_;

 private:
  Seconds drop_cost_;
  std::optional<std::size_t> fail_drop_;
};

}  // namespace

TEST_CASE("the default workload drops the cache behind every 32 MiB", "[bench]") {
  REQUIRE(Workload{}.drop_behind_bytes == 32 * kMib);
  REQUIRE(Workload{}.chunk_bytes == 2 * kMib);
}

TEST_CASE("buffered reads drop the cache behind them in whole chunks, timed", "[bench]") {
  // 2 MiB chunks at 100 MiB/s (0.02 s each); drops every 5 MiB = after every 3 chunks
  // (6 MiB), each 0.015 s. 40 reads + 13 drops = 0.995 s < 1 s; 41 reads: 1.015 s.
  Workload w = workload(Method::buffered, 2 * kMib, 1.0, 4 * kMib);
  w.drop_behind_bytes = 5 * kMib;
  DroppingBlockIo io({.size_bytes = 1024 * kMib, .disk_mib_s = 100.0}, Seconds{0.015});
  auto sample = bench::run_sample(io, w);
  REQUIRE(sample);
  REQUIRE(io.fake_.read_count() == 41);
  REQUIRE(io.drops_.size() == 13);
  for (std::size_t i = 0; i < io.drops_.size(); ++i)
    REQUIRE(io.drops_[i] == std::pair<std::uint64_t, std::uint64_t>{4 * kMib + i * 6 * kMib, 6 * kMib});
  // The drops are part of the timed time: 82 MiB in 1.015 s, not in 0.82 s.
  REQUIRE(sample->elapsed.count() == Approx(1.015).epsilon(1e-9));
  REQUIRE(sample->value == Approx(82.0 / 1.015).epsilon(1e-9));
}

TEST_CASE("drop-behind restarts at the offset after a wrap and never drops unread data", "[bench]") {
  // 1 MiB offset, 9 MiB device: 4 chunks of 2 MiB per pass ([1, 9) MiB). Drops every 4 MiB.
  Workload w = workload(Method::buffered, 2 * kMib, 0.19, kMib);  // 10 reads of 0.02 s
  w.drop_behind_bytes = 4 * kMib;
  DroppingBlockIo io({.size_bytes = 9 * kMib, .disk_mib_s = 100.0}, Seconds{0.0});
  auto sample = bench::run_sample(io, w);
  REQUIRE(sample);
  REQUIRE(io.fake_.read_count() == 10);  // passes of 4, 4 and 2 reads
  using Range = std::pair<std::uint64_t, std::uint64_t>;
  REQUIRE(io.drops_ == std::vector<Range>{{kMib, 4 * kMib}, {5 * kMib, 4 * kMib},
                                          {kMib, 4 * kMib}, {5 * kMib, 4 * kMib},
                                          {kMib, 4 * kMib}});
  REQUIRE(io.fake_.flush_count() == 3);
}

TEST_CASE("drop_behind_bytes 0 never drops; cached samples never drop", "[bench]") {
  Workload w = workload(GENERATE(Method::buffered, Method::cached), 2 * kMib, 0.5);
  if (w.method == Method::buffered) w.drop_behind_bytes = 0;
  DroppingBlockIo io({.size_bytes = 64 * kMib, .disk_mib_s = 100.0, .cached_mib_s = 1000.0}, Seconds{0.0});
  auto sample = bench::run_sample(io, w);
  REQUIRE(sample);
  REQUIRE(io.fake_.read_count() > 16);  // more than one drop window was read
  REQUIRE(io.drops_.empty());
}

TEST_CASE("a failing drop ends the sample with its error", "[bench]") {
  Workload w = workload(Method::buffered, 2 * kMib, 1.0);
  w.drop_behind_bytes = 4 * kMib;
  DroppingBlockIo io({.size_bytes = 64 * kMib, .disk_mib_s = 100.0}, Seconds{0.0}, 1);
  auto sample = bench::run_sample(io, w);
  REQUIRE_FALSE(sample);
  REQUIRE(sample.error().code.value() == EBADF);
  REQUIRE(io.fake_.read_count() == 4);  // the drop after the 4th read failed
}

TEST_CASE("no sample pays for the readahead the previous one left in flight", "[bench]") {
  // Each sample's first read fills a 2.5 MiB readahead window (read_ahead_kb 2560), and every
  // read leaves one in flight, which the next sample's first read, back at the offset, would
  // wait for. run_sample counts the window as delivered (completed_bytes) and waits out the
  // one in flight after its clock stops (settle), so every sample reads at the device rate.
  FakeBlockIo io({.size_bytes = 1024 * kMib, .disk_mib_s = 50.0, .readahead_bytes = 2560 * 1024});
  const Method method = GENERATE(Method::buffered, Method::cached);
  auto samples = bench::run_samples(io, workload(method, 2 * kMib, 1.0), 3);
  REQUIRE(samples);
  if (method == Method::buffered)
    for (const bench::Sample& sample : *samples) REQUIRE(sample.value == Approx(50.0).epsilon(1e-9));
  for (const bench::Sample& sample : *samples)
    REQUIRE(sample.settled.count() == Approx(2.5 / 50.0).epsilon(1e-9));
  if (method == Method::buffered)
    for (const bench::Sample& sample : *samples) REQUIRE(sample.delivered_bytes == sample.bytes + 2560 * 1024);
  REQUIRE(io.events().back().kind == FakeIoEvent::Kind::settle);
}
