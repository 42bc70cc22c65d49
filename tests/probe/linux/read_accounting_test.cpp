// SPDX-License-Identifier: GPL-2.0-or-later
// Read accounting: block stat lines parsed as the kernel documents them; on a loop device the
// test creates (root only), every byte this process submitted has completed after settle().
#include "probe/linux/read_accounting.hpp"
#include "probe/linux/linux_block_io.hpp"
#include "tests/support/loop_device.hpp"

#include "tests/support/skip.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdint>
#include <vector>

using namespace disktune::probe;
using disktune::testing::LoopDevice;

TEST_CASE("a block stat line gives read sectors as bytes and in_flight", "[probe]") {
  // Documentation/block/stat.rst's 17 fields (kernel 5.5 on): read I/Os, read merges, read
  // sectors, read ticks, write..., in_flight, io_ticks, time_in_queue, discard..., flush...
  auto reads = parse_block_stat(
      "   18317      327  1581738    14312     3416     2930   145816     4183        2    22260    18771        0        0        0        0      614      275");
  REQUIRE(reads);
  REQUIRE(reads->completed_bytes == 1581738ull * 512);
  REQUIRE(reads->in_flight == 2);
  // Kernels before 4.18 print only the first eleven fields.
  REQUIRE(parse_block_stat("1 0 8 0 0 0 0 0 0 0 0")->completed_bytes == 4096);
  for (const char* bad : {"", "1 2 3 4 5 6 7 8", "1 2 x 4 5 6 7 8 9 10 11", "1 2 -3 4 5 6 7 8 9 10 11"}) {
    auto parsed = parse_block_stat(bad);
    REQUIRE_FALSE(parsed);
    REQUIRE(parsed.error().code == std::make_error_code(std::errc::invalid_argument));
  }
}

TEST_CASE("this process's submitted read bytes are counted from /proc/self/io", "[probe]") {
  auto first = task_submitted_read_bytes();
  REQUIRE(first);
  auto again = task_submitted_read_bytes();
  REQUIRE(again);
  REQUIRE(*again >= *first);
}

TEST_CASE("after settle every read this process submitted, readahead included, has completed",
          "[probe]") {
  std::string why;
  auto loop = LoopDevice::create(64u << 20, why);
  if (!loop) {
    disktune::testing::skip_test("loop device unavailable: " + why);
    return;
  }
  struct stat st{};
  REQUIRE(::stat(loop->path().c_str(), &st) == 0);
  auto io = open_linux_block_io(loop->path(), IoMode::buffered);
  REQUIRE(io);
  REQUIRE((*io)->flush_cache());
  auto before = mark_reads(st.st_rdev);
  REQUIRE(before);
  std::vector<std::byte> buffer(1u << 20);
  for (std::uint64_t offset = 0; offset < (8u << 20); offset += buffer.size())
    REQUIRE((*io)->read_at(offset, buffer));
  auto waited = (*io)->settle(Seconds{10.0});
  REQUIRE(waited);
  REQUIRE(waited->count() < 10.0);
  auto after = mark_reads(st.st_rdev);
  REQUIRE(after);
  const std::uint64_t submitted = after->submitted_bytes - before->submitted_bytes;
  const std::uint64_t completed = after->completed_bytes - before->completed_bytes;
  REQUIRE(submitted >= (8u << 20));  // the reads themselves, plus their readahead
  REQUIRE(completed >= submitted);
  auto device = read_device_reads(st.st_rdev);
  REQUIRE(device);
  REQUIRE(device->in_flight == 0);
}
