// SPDX-License-Identifier: GPL-2.0-or-later
// RunStore: a run's TrialStore plus its baseline and confirmation round; memory-backed here.
#pragma once

#include "strategies/trial_store.hpp"
#include "tuner/trial/trial_runner.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace disktune::tuner {

/// A confirmation round as run (or not) for decide() (tuner/run/decision.hpp).
struct Round {
  std::vector<strategies::TrialResult> results;  ///< one per contender, in order; empty when skipped
  std::string skipped;                           ///< why the round was not run ("" when it ran)
};

/// Measures a confirmation round of `contenders` (TrialRunner::confirm's contract).
using RoundMeasure =
    std::function<probe::Result<std::vector<strategies::TrialResult>>(const std::vector<probe::Settings>&)>;

/// What the pipeline keeps of a run: its trials (strategies::TrialStore, written by the
/// Evaluator), the baseline and the confirmation round. RunJournal for `tune`,
/// MemoryRunStore for `evaluate` and tests.
/// A confirm() error that is a failed store write (a full journal disk), not a failed
/// measurement: the run ends as a store failure (exit 3), its table and report kept. Its
/// op: "journal write failed: <the write's error>".
probe::Error store_write_failed(const std::string& why);
/// True for an error made by store_write_failed (its own error category, never an errno).
bool is_store_write_failure(const probe::Error& error);

class RunStore : public strategies::TrialStore {
 public:
  /// The baseline a resumed run measured already, if any.
  [[nodiscard]] virtual std::optional<strategies::Baseline> saved_baseline() const = 0;
  /// Record the baseline measurement (durably). A Stop (store_failed) when it cannot be written.
  virtual std::optional<strategies::Stop> record_baseline(const strategies::Baseline& baseline) = 0;
  /// Round `round` (0, then the extra rounds) of the confirmation of `contenders` ([0] the
  /// baseline) as one unit: from the store, skipped (Round::skipped says why), or `measure`
  /// run (RunJournal::confirm's contract). A record that cannot be written: a
  /// store_write_failed error.
  virtual probe::Result<Round> confirm(const std::vector<probe::Settings>& contenders, int round,
                                       const RoundMeasure& measure) = 0;
};

/// A RunStore in memory over a strategies::MemoryTrialStore: rounds are always measured.
class MemoryRunStore final : public RunStore {
 public:
  explicit MemoryRunStore(strategies::MemoryTrialStore trials = strategies::MemoryTrialStore{},
                          std::optional<strategies::Baseline> baseline = std::nullopt)
      : trials_(std::move(trials)), baseline_(std::move(baseline)) {}
  [[nodiscard]] strategies::TrialHistory history() const override { return trials_.history(); }
  std::optional<strategies::Stop> begin(const probe::Settings& config, bool quick) override {
    return trials_.begin(config, quick);
  }
  std::optional<strategies::Stop> record(const strategies::TrialResult& trial) override { return trials_.record(trial); }
  [[nodiscard]] std::optional<strategies::Baseline> saved_baseline() const override { return baseline_; }
  std::optional<strategies::Stop> record_baseline(const strategies::Baseline& baseline) override {
    baseline_ = baseline;
    return std::nullopt;
  }
  probe::Result<Round> confirm(const std::vector<probe::Settings>& contenders, int round,
                               const RoundMeasure& measure) override;
  /// The trial records (for a resume: trials().reopen(boot id)).
  [[nodiscard]] strategies::MemoryTrialStore& trials() { return trials_; }

 private:
  strategies::MemoryTrialStore trials_;
  std::optional<strategies::Baseline> baseline_;
};

}  // namespace disktune::tuner
