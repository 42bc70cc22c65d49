// SPDX-License-Identifier: GPL-2.0-or-later
// A TrialStore that keeps confirmation rounds as the journal does (pipeline tests of resume).
#pragma once

#include "tests/support/forwarding_store.hpp"

#include <map>
#include <utility>
#include <vector>

namespace disktune::testing {

using strategies::TrialResult;

// A TrialStore that keeps each confirmation round by its contenders and round number, as the
// journal does, and hands a kept round back instead of measuring it (a resumed run).
class RoundKeepingStore final : public ForwardingStore {
 public:
  strategies::Rounded confirm_round(const std::vector<probe::Settings>& contenders, int round,
                                    const strategies::RoundMeasure& measure) override {
    asked.push_back(round);
    if (const auto kept = rounds.find({contenders, round}); kept != rounds.end()) return kept->second;
    auto measured = ForwardingStore::confirm_round(contenders, round, measure);
    if (const auto* done = std::get_if<strategies::Round>(&measured)) rounds.emplace(std::pair{contenders, round}, *done);
    return measured;
  }
  std::map<std::pair<std::vector<probe::Settings>, int>, strategies::Round> rounds;
  std::vector<int> asked;
};

}  // namespace disktune::testing
