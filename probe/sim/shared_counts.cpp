// SPDX-License-Identifier: GPL-2.0-or-later
// Counters per key in anonymous shared memory (mmap MAP_SHARED | MAP_ANONYMOUS).
#include "probe/sim/shared_counts.hpp"

#include <sys/mman.h>

#include <atomic>
#include <new>

namespace disktune::probe {

struct SharedCounts::Table {
  struct Slot {
    std::atomic<std::uint64_t> key;    // 0: free (key 0 is stored as 1 << 63)
    std::atomic<std::uint64_t> count;
  };
  Slot* slots = nullptr;
  std::size_t size = 0;

  explicit Table(std::size_t n) : size(n) {
    void* mapped = mmap(nullptr, n * sizeof(Slot), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    slots = static_cast<Slot*>(mapped);  // zero-filled: every slot free
  }
  ~Table() { munmap(slots, size * sizeof(Slot)); }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
};

SharedCounts::SharedCounts(std::size_t slots) : table_(std::make_shared<Table>(slots == 0 ? 1 : slots)) {}

std::uint64_t SharedCounts::next(std::uint64_t key) {
  const std::uint64_t stored = key == 0 ? std::uint64_t{1} << 63 : key;
  auto& t = *table_;
  std::size_t i = static_cast<std::size_t>(stored % t.size);
  for (std::size_t probes = 1; probes < t.size; ++probes, i = (i + 1) % t.size) {
    std::uint64_t expected = 0;
    if (t.slots[i].key.compare_exchange_strong(expected, stored) || expected == stored) break;
  }
  return t.slots[i].count.fetch_add(1);
}

}  // namespace disktune::probe
