// SPDX-License-Identifier: GPL-2.0-or-later
// PruneLog: the reasons values were left out of a search space, counted (SearchSpace::pruned).
#pragma once

#include "strategies/search_space.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace disktune::strategies {

/// Reason -> count, in first-seen order (the report lists reasons as they arise). A reason
/// added again adds to its count; a count of 0 adds nothing.
class PruneLog {
 public:
  void add(const std::string& reason, std::size_t count = 1) {
    if (count == 0) return;
    for (auto& entry : entries_)
      if (entry.reason == reason) {
        entry.count += count;
        return;
      }
    entries_.push_back({reason, count});
  }
  /// The reasons with their counts, in first-seen order; the log is empty afterwards.
  [[nodiscard]] std::vector<Pruned> take() { return std::move(entries_); }

 private:
  std::vector<Pruned> entries_;
};

}  // namespace disktune::strategies
