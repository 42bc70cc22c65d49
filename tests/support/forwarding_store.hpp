// SPDX-License-Identifier: GPL-2.0-or-later
// A TrialStore that hands every record to a MemoryTrialStore: the base of stores that change one behaviour.
#pragma once

#include "strategies/trial_store.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace disktune::testing {

/// Every TrialStore call forwarded to a MemoryTrialStore (inner()); a test's store derives from
/// it and overrides the one call it changes (confirm_round, typically).
class ForwardingStore : public strategies::TrialStore {
 public:
  [[nodiscard]] strategies::TrialHistory history() const override { return inner_.history(); }
  std::optional<strategies::Stop> begin(const probe::Settings& c, bool quick) override { return inner_.begin(c, quick); }
  std::optional<strategies::Stop> record(const strategies::TrialResult& trial) override { return inner_.record(trial); }
  std::optional<strategies::Stop> begin_baseline(strategies::TrialKind kind, int index) override {
    return inner_.begin_baseline(kind, index);
  }
  std::optional<strategies::Stop> begin_unit(const std::vector<probe::Settings>& contenders, int round, int pass,
                                             std::size_t unit) override {
    return inner_.begin_unit(contenders, round, pass, unit);
  }
  [[nodiscard]] std::optional<strategies::Baseline> saved_baseline() const override { return inner_.saved_baseline(); }
  std::optional<strategies::Stop> record_baseline(const strategies::Baseline& baseline) override {
    return inner_.record_baseline(baseline);
  }
  strategies::Rounded confirm_round(const std::vector<probe::Settings>& contenders, int round,
                                    const strategies::RoundMeasure& measure) override {
    return inner_.confirm_round(contenders, round, measure);
  }
  /// The memory store under it: its records.
  [[nodiscard]] const strategies::MemoryTrialStore& inner() const { return inner_; }

 private:
  strategies::MemoryTrialStore inner_;
};

}  // namespace disktune::testing
