// SPDX-License-Identifier: GPL-2.0-or-later
// Range bookkeeping of the simulated page cache.
#include "probe/sim/sim_page_cache.hpp"

#include <algorithm>

namespace disktune::probe {

std::vector<ByteRange> SimPageCache::missing(ByteRange range) const {
  std::vector<ByteRange> hits;
  for (const auto& [begin, end] : pieces_) {
    const std::uint64_t low = std::max(begin, range.first);
    const std::uint64_t high = std::min(end, range.second);
    if (low < high) hits.emplace_back(low, high);
  }
  std::sort(hits.begin(), hits.end());
  std::vector<ByteRange> gaps;
  std::uint64_t cursor = range.first;
  for (const auto& [low, high] : hits) {
    if (cursor < low) gaps.emplace_back(cursor, low);
    cursor = std::max(cursor, high);
  }
  if (cursor < range.second) gaps.emplace_back(cursor, range.second);
  return gaps;
}

void SimPageCache::insert(ByteRange range) {
  for (const ByteRange& gap : missing(range)) {
    if (!pieces_.empty() && pieces_.back().second == gap.first)
      pieces_.back().second = gap.second;
    else
      pieces_.push_back(gap);
    held_ += gap.second - gap.first;
  }
  evict();
}

void SimPageCache::drop(ByteRange range) {
  std::deque<ByteRange> kept;
  for (const auto& [begin, end] : pieces_) {
    if (begin < range.first) kept.emplace_back(begin, std::min(end, range.first));
    if (end > range.second) kept.emplace_back(std::max(begin, range.second), end);
  }
  pieces_ = std::move(kept);
  held_ = 0;
  for (const auto& [begin, end] : pieces_) held_ += end - begin;
}

void SimPageCache::evict() {
  while (held_ > capacity_ && !pieces_.empty()) {
    ByteRange& oldest = pieces_.front();
    const std::uint64_t drop = std::min(held_ - capacity_, oldest.second - oldest.first);
    oldest.first += drop;
    held_ -= drop;
    if (oldest.first == oldest.second) pieces_.pop_front();
  }
}

}  // namespace disktune::probe
