// SPDX-License-Identifier: GPL-2.0-or-later
// Read accounting: block stat lines parsed as the kernel documents them; on a loop device the
// test creates (root only), every byte this process submitted has completed after settle().
#include "probe/linux/read_accounting.hpp"
#include "probe/linux/linux_block_io.hpp"
#include "tests/support/loop_device.hpp"


#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

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
  auto loop = disktune::testing::loop_device_or_skip(64u << 20);
  if (!loop) return;
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

TEST_CASE("another process's reads of the device are never credited to this one", "[probe]") {
  auto loop = disktune::testing::loop_device_or_skip(16u << 20);
  if (!loop) return;
  auto io = open_linux_block_io(loop->path(), IoMode::buffered);
  REQUIRE(io);
  REQUIRE((*io)->flush_cache());
  REQUIRE((*io)->settle(Seconds{10.0}));
  // Another reader: a child that reads 8 MiB O_DIRECT and waits to be told to exit. It is
  // checked before the child is reaped: reaping adds a child's read_bytes to its parent's.
  int done[2];
  int go[2];
  REQUIRE(::pipe(done) == 0);
  REQUIRE(::pipe(go) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    auto other = open_linux_block_io(loop->path(), IoMode::direct);
    void* buffer = nullptr;
    char status = 1;
    if (other && ::posix_memalign(&buffer, 4096, 1u << 20) == 0) {
      status = 0;
      for (std::uint64_t offset = 0; offset < (8u << 20); offset += 1u << 20)
        if (!(*other)->read_at(offset, {static_cast<std::byte*>(buffer), 1u << 20})) status = 1;
    }
    char ignored = 0;
    if (::write(done[1], &status, 1) != 1 || ::read(go[0], &ignored, 1) < 0) ::_exit(2);
    ::_exit(0);
  }
  char status = 1;
  REQUIRE(::read(done[0], &status, 1) == 1);
  // The device completed 8 MiB this process never submitted: no figure may count them.
  const auto credited = (*io)->completed_bytes();
  char go_on = 0;
  REQUIRE(::write(go[1], &go_on, 1) == 1);
  int exit_status = 0;
  REQUIRE(::waitpid(child, &exit_status, 0) == child);
  for (const int fd : {done[0], done[1], go[0], go[1]}) ::close(fd);
  REQUIRE(status == 0);
  CHECK_FALSE(credited.has_value());
  std::vector<std::byte> buffer(1u << 20);
  REQUIRE((*io)->settle(Seconds{10.0}));  // a new mark: from here on only our reads
  REQUIRE((*io)->read_at(8u << 20, buffer));
  const auto ours = (*io)->completed_bytes();
  REQUIRE(ours.has_value());
  CHECK(*ours >= (1u << 20));
}
