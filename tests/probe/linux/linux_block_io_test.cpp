// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxBlockIo's cache control on a loop device the test creates (root only), seen by mincore.
#include "probe/linux/linux_block_io.hpp"
#include "tests/support/loop_device.hpp"


#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace disktune::probe;
using disktune::testing::LoopDevice;

namespace {

constexpr std::uint64_t kMib = 1u << 20;
constexpr std::uint64_t kPage = 4096;

// Which 4 KiB pages of the device's first `bytes` the page cache holds (mincore of a
// read-only shared mapping that is never touched, so mapping it caches nothing).
std::vector<bool> cached_pages(const std::string& path, std::uint64_t bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  void* map = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  REQUIRE(map != MAP_FAILED);
  std::vector<unsigned char> vec(bytes / kPage);
  const int rc = ::mincore(map, bytes, vec.data());
  ::munmap(map, bytes);
  REQUIRE(rc == 0);
  std::vector<bool> cached;
  for (const unsigned char v : vec) cached.push_back((v & 1) != 0);
  return cached;
}

std::size_t count_cached(const std::vector<bool>& pages, std::size_t first, std::size_t last) {
  std::size_t n = 0;
  for (std::size_t i = first; i < last; ++i) n += pages[i] ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("drop_cached drops exactly the range it is given; flush_cache drops the rest", "[probe]") {
  auto loop = disktune::testing::loop_device_or_skip(16 * kMib);
  if (!loop) return;
  auto io = open_linux_block_io(loop->path(), IoMode::buffered);
  REQUIRE(io);
  REQUIRE((*io)->flush_cache());
  std::vector<std::byte> buffer(8 * kMib);
  REQUIRE((*io)->read_at(0, buffer));
  REQUIRE(std::equal(buffer.begin(), buffer.end(), loop->contents().begin()));
  const std::size_t pages = 8 * kMib / kPage;  // 2048
  auto before = cached_pages(loop->path(), 8 * kMib);
  REQUIRE(count_cached(before, 0, pages) == pages);

  REQUIRE((*io)->drop_cached(0, 4 * kMib));
  auto after = cached_pages(loop->path(), 8 * kMib);
  REQUIRE(count_cached(after, 0, pages / 2) == 0);
  REQUIRE(count_cached(after, pages / 2, pages) == pages / 2);

  REQUIRE((*io)->flush_cache());
  REQUIRE(count_cached(cached_pages(loop->path(), 8 * kMib), 0, pages) == 0);
  // Dropping the cache never changes the data.
  REQUIRE(loop->file_checksum() == disktune::testing::fnv1a(loop->contents()));
}
