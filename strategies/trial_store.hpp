// SPDX-License-Identifier: GPL-2.0-or-later
// TrialStore: where trials are recorded (intent before applying, then the result); memory-backed here.
#pragma once

#include "strategies/baseline.hpp"
#include "strategies/stop.hpp"
#include "strategies/trial.hpp"
#include "strategies/trial_executor.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

namespace disktune::strategies {

/// A trial's key in a store: the full configuration and whether it was a quick trial.
using TrialKey = std::pair<probe::Settings, bool>;

/// The baseline's trials in flight when the run a store resumes died: begun (an intent record)
/// since the last baseline record, never completed.
struct BaselineInFlight {
  int attempts = 0;  ///< attempts begun (a first trial, or a resume's checksum read), each ended by a death
  int restarts = 0;  ///< of those deaths, the ones the machine restarted in (the boot id changed after them)
  std::string last_boot_id;  ///< the boot the last attempt began in
  std::string what;  ///< the trial last begun: "the baseline's first trial", "noise repeat 2", ...
};

/// `in_flight` as a resume in boot `boot_id` judges it: the last attempt's death counted as a
/// restart when the boot changed since.
BaselineInFlight judged_in(BaselineInFlight in_flight, const std::string& boot_id);

/// What a store knew of trials before this run (a resumed journal, or one set aside): the
/// Evaluator takes it over at construction and consults it before running anything.
struct TrialHistory {
  /// Completed in the run this one resumes: taken as they are, not recorded again.
  std::map<TrialKey, TrialResult> results;
  /// Started and never finished in a way that rules out running them again (docs/architecture.md
  /// "Hangs, crashes and reboots"; death_verdict): status crashed, recorded, never applied.
  std::map<TrialKey, TrialResult> crashed;
  /// Kept from a set-aside journal of this drive (hang, wedged, crashed), for either effort:
  /// recorded with this detail, never applied.
  std::map<probe::Settings, TrialResult> quarantined;
  /// The baseline's trials that were in flight when the resumed run died (nullopt: none).
  std::optional<BaselineInFlight> baseline_in_flight;
};

/// Why the baseline must not be measured again after `in_flight` (judged_in; docs/journal.md):
/// the machine restarted twice while the settings as found were measured ("" to measure them
/// again). A process killed or crashed there (the same boot) never ends the run: the settings as
/// found are the machine's own, not a trial's, and a user's kill -9 must not block the tune.
std::string baseline_death_verdict(const BaselineInFlight& in_flight);

/// "the baseline's first trial", "noise repeat N", "the resume's checksum read": what a
/// baseline-kind trial of `kind`, number `index` of its baseline, is called in messages.
std::string baseline_trial_name(TrialKind kind, int index);

/// Why an unfinished attempt (an intent without a result, `attempts` of them, the latest in
/// boot `last_boot_id`) must not be run again in boot `boot_id`: the machine restarted since
/// or the process died in it twice; "" to run it once more. `what`: "this trial".
std::string death_verdict(const std::string& last_boot_id, int attempts, const std::string& boot_id,
                          const std::string& what);

/// A confirmation round as the store gives it: measured, taken from a resumed run, or skipped.
struct Round {
  std::vector<TrialResult> results;  ///< one per contender, in order; empty when skipped
  std::string skipped;               ///< why the round was not run ("" when it ran)
};

/// A round, or the stop it ran into (the measurement's, or a record that could not be written).
using Rounded = std::variant<Round, Stop>;

/// Measures a confirmation round of the contenders (TrialExecutor::confirm).
using RoundMeasure = std::function<Confirmed(const std::vector<probe::Settings>& contenders)>;

/// Durable record of a run's trials (journal-backed for `tune`: tuner::RunJournal;
/// memory-backed for `evaluate` and tests: MemoryTrialStore). Only the Evaluator writes it.
class TrialStore {
 public:
  virtual ~TrialStore() = default;
  /// What the store knew before this run (empty for a new one).
  [[nodiscard]] virtual TrialHistory history() const = 0;
  /// The intent record of (config, quick), durable (fsync) before anything is applied.
  /// A Stop (store_failed) when it could not be written: then nothing may be applied.
  virtual std::optional<Stop> begin(const probe::Settings& config, bool quick) = 0;
  /// The result record of `trial` (keyed by its settings and quick flag).
  /// A Stop (store_failed) when it could not be written.
  virtual std::optional<Stop> record(const TrialResult& trial) = 0;
  /// The intent record of a trial of the settings as found (`kind` baseline, baseline_repeat or
  /// baseline_check; `index` 0 for the first trial or a resume's checksum read, then 1, 2, ...
  /// for the noise repeats), durable before it runs; record_baseline ends them. A Stop
  /// (store_failed) when it could not be written: then the trial is not run.
  virtual std::optional<Stop> begin_baseline(TrialKind kind, int index) = 0;
  /// The intent record of one confirmation unit (contender `unit` of `contenders`, [0] the
  /// baseline, in pass `pass` of the round confirm_round(contenders, round) is measuring),
  /// durable before its settings are applied. A Stop (store_failed) when it could not be written.
  virtual std::optional<Stop> begin_unit(const std::vector<probe::Settings>& contenders, int round, int pass,
                                         std::size_t unit) = 0;
  /// The baseline the run this one resumes measured already, if any.
  [[nodiscard]] virtual std::optional<Baseline> saved_baseline() const = 0;
  /// Record the baseline measurement (durably). A Stop (store_failed) when it cannot be written.
  virtual std::optional<Stop> record_baseline(const Baseline& baseline) = 0;
  /// Round `round` (0, then the extra rounds) of the confirmation of `contenders` ([0] the
  /// baseline) as one unit: taken from the store, skipped (Round::skipped says why), or
  /// `measure` run between an intent and a result record. A Stop: the measurement's, or
  /// store_failed when a record cannot be written.
  virtual Rounded confirm_round(const std::vector<probe::Settings>& contenders, int round,
                                const RoundMeasure& measure) = 0;
  /// The run's wall seconds so far [s], an interrupted run's included: a journal that resumed
  /// one counts on from the run time its last record carried (the progress lines' elapsed
  /// time never goes back on a resume). nullopt: this store keeps no clock (the pipeline
  /// counts from its own start).
  [[nodiscard]] virtual std::optional<double> run_seconds() const { return std::nullopt; }
};

/// A TrialStore in memory that keeps its records like a journal: reopen() gives the store a
/// resumed run sees, with the same verdicts on unfinished attempts.
class MemoryTrialStore : public TrialStore {
 public:
  /// `boot_id`: the boot this store's records are written in.
  explicit MemoryTrialStore(std::string boot_id = "boot", TrialHistory history = {});
  [[nodiscard]] TrialHistory history() const override { return history_; }
  std::optional<Stop> begin(const probe::Settings& config, bool quick) override;
  std::optional<Stop> record(const TrialResult& trial) override;
  std::optional<Stop> begin_baseline(TrialKind kind, int index) override;
  std::optional<Stop> begin_unit(const std::vector<probe::Settings>& contenders, int round, int pass,
                                 std::size_t unit) override;
  [[nodiscard]] std::optional<Baseline> saved_baseline() const override { return saved_baseline_; }
  /// Kept as the saved baseline of the store reopen() gives (a resumed run adopts it).
  std::optional<Stop> record_baseline(const Baseline& baseline) override;
  /// Always measured (a round is no resumable unit in memory); the measurement's Stop as it is.
  Rounded confirm_round(const std::vector<probe::Settings>& contenders, int round, const RoundMeasure& measure) override;
  /// Fail every write after `writes` more have succeeded (a disk that fills up).
  void fail_after(std::size_t writes) { writes_left_ = writes; }
  /// A store over the same records, as a run resuming them in boot `boot_id` finds them:
  /// results completed, unfinished attempts judged by death_verdict, the baseline saved.
  [[nodiscard]] MemoryTrialStore reopen(const std::string& boot_id) const;
  /// Intent records written, in order.
  [[nodiscard]] const std::vector<TrialKey>& intents() const { return intents_; }
  /// Result records written, in order.
  [[nodiscard]] const std::vector<TrialResult>& results() const { return results_; }
  /// Intent records of baseline-kind trials written, in order: (kind, index).
  [[nodiscard]] const std::vector<std::pair<TrialKind, int>>& baseline_intents() const { return baseline_intents_; }
  /// Intent records of confirmation units written, in order: (round, pass, unit).
  [[nodiscard]] const std::vector<std::tuple<int, int, std::size_t>>& unit_intents() const { return unit_intents_; }

 private:
  struct Attempts {
    int count = 0;
    std::string last_boot_id;
  };
  std::optional<Stop> write();

  std::string boot_id_;
  TrialHistory history_;
  std::optional<Baseline> saved_baseline_;  // a resumed run's (reopen), or this run's once recorded
  std::vector<TrialKey> intents_;
  std::vector<TrialResult> results_;
  std::map<TrialKey, Attempts> pending_;  // intents without a result yet
  std::vector<std::pair<TrialKind, int>> baseline_intents_;
  std::vector<std::tuple<int, int, std::size_t>> unit_intents_;
  std::optional<BaselineInFlight> baseline_pending_;  // baseline intents since the last record_baseline
  std::optional<std::size_t> writes_left_;
};

}  // namespace disktune::strategies
