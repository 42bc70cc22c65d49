// SPDX-License-Identifier: GPL-2.0-or-later
// A TrialStore that keeps confirmation rounds as the journal does (pipeline tests of resume).
#pragma once

#include "strategies/trial_store.hpp"

#include <map>
#include <utility>
#include <vector>

namespace disktune::testing {

using strategies::TrialResult;

// A TrialStore that keeps each confirmation round by its contenders and round number, as the
// journal does, and hands a kept round back instead of measuring it (a resumed run).
class RoundKeepingStore final : public strategies::TrialStore {
 public:
  [[nodiscard]] strategies::TrialHistory history() const override { return inner_.history(); }
  std::optional<strategies::Stop> begin(const probe::Settings& c, bool quick) override { return inner_.begin(c, quick); }
  std::optional<strategies::Stop> record(const TrialResult& trial) override { return inner_.record(trial); }
  [[nodiscard]] std::optional<strategies::Baseline> saved_baseline() const override { return inner_.saved_baseline(); }
  std::optional<strategies::Stop> record_baseline(const strategies::Baseline& baseline) override {
    return inner_.record_baseline(baseline);
  }
  strategies::Rounded confirm_round(const std::vector<probe::Settings>& contenders, int round,
                                    const strategies::RoundMeasure& measure) override {
    asked.push_back(round);
    if (const auto kept = rounds.find({contenders, round}); kept != rounds.end()) return kept->second;
    auto measured = inner_.confirm_round(contenders, round, measure);
    if (const auto* done = std::get_if<strategies::Round>(&measured)) rounds.emplace(std::pair{contenders, round}, *done);
    return measured;
  }
  std::map<std::pair<std::vector<probe::Settings>, int>, strategies::Round> rounds;
  std::vector<int> asked;

 private:
  strategies::MemoryTrialStore inner_;
};

}  // namespace disktune::testing
