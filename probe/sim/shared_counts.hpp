// SPDX-License-Identifier: GPL-2.0-or-later
// Counters per key in anonymous shared memory: what a forked trial child counts, its parent and later children see.
#pragma once

#include <cstdint>
#include <memory>

namespace disktune::probe {

/// A count per 64-bit key, kept in an anonymous MAP_SHARED mapping made at construction, so
/// that a process forked afterwards (the watchdog child of a trial or of a confirmation call)
/// increments the same counts as its parent and every later child: the simulated drive numbers
/// the opens of one configuration with it, and a configuration measured again in another child
/// (the baseline's noise trials, a confirmation round's second call) draws new noise instead of
/// repeating the first child's. Copies share the mapping. Holds `slots` keys (open addressing);
/// a key past a full table counts in the last slot probed. Errors: std::bad_alloc when the
/// mapping cannot be made (mmap(2)).
class SharedCounts {
 public:
  explicit SharedCounts(std::size_t slots = 4096);
  /// The count of `key` so far (0 the first time), then counts this call.
  std::uint64_t next(std::uint64_t key);

 private:
  struct Table;
  std::shared_ptr<Table> table_;
};

}  // namespace disktune::probe
