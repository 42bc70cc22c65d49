// SPDX-License-Identifier: GPL-2.0-or-later
// RunJournal: the journal-backed TrialStore of a tune run (resume, durable records, restore).
#pragma once

#include "results/journal.hpp"
#include "tuner/device_context.hpp"
#include "tuner/journal/journal_file.hpp"
#include "tuner/journal/measurement_options.hpp"
#include "strategies/trial_store.hpp"
#include "tuner/trial/trial_runner.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>

namespace disktune::tuner {

/// Which journal a tune or restore uses, and what to do with one it finds (README "Journal").
struct JournalOptions {
  std::optional<std::string> path;  ///< --journal FILE; nullopt = default_journal_path(journal_key(...))
  bool fresh = false;               ///< --fresh: set an unfinished journal aside and start over
  bool force = false;               ///< --force: resume or restore a journal recorded under another name or kernel
};

/// The journal side of a tune run (docs/architecture.md "Hangs, crashes and reboots"):
/// - a finished journal, or --fresh, is set aside and a new one started;
/// - an unfinished one is resumed: the original settings it recorded are restored first
///   (the device may be in a trial's state after a crash) unless its records say they are
///   back already (a signal stop's or a restore's record: JournalState::settings_back), in
///   which case a drive changed since is refused (refuse_changed_since_stop), never written
///   over; completed trials are taken from
///   it, and a trial with an intent but no result is judged: a reboot since (boot id
///   changed) or a second unfinished attempt makes it `crashed` (quarantined); a first
///   unfinished attempt in the same boot is run once more (strategies::death_verdict); what
///   it found is history(), which the Evaluator takes over: the journal keeps no cache or
///   quarantine of its own;
/// - a journal of another drive or kernel is refused unless --force;
/// - a resume whose measurement options (measurement_options) differ from the journal's is
///   refused, naming each option with both values;
/// - --fresh sets aside (renames, never deletes) any journal, readable or not, and says
///   where it is and how to restore from it; the quarantine of a readable one of this drive
///   (hang, wedged, crashed) is kept: those configurations are not applied again.
/// The start record (with the original settings) is durable before open() returns: open it
/// before anything writes to the device, the capability probe included.
class RunJournal final : public strategies::TrialStore {
 public:
  /// Open the journal for `context`'s device and decide new/resume. An unfinished journal of
  /// this drive that owes a restore has its recorded originals put back on the device first
  /// (restore_recorded) and adopted as context.original: the only device access, here and not
  /// in a constructor.
  /// `options`: measurement_options() of this run. Throws RunError (2: damaged or foreign
  /// journal, other options, lock held, a drive changed since its settings were put back; 4:
  /// the recorded original settings could not be restored).
  /// `device`: how the device was opened (a simulated drive's journal is keyed by its seed).
  static std::unique_ptr<RunJournal> open(const JournalOptions& journal, const DeviceRequest& device,
                                          DeviceContext& context, const boost::json::object& options,
                                          std::ostream& log);

  [[nodiscard]] const std::string& path() const { return file_.path(); }
  /// Whether open() resumed an unfinished journal (else it started a new one).
  [[nodiscard]] bool resumed() const { return resumed_.has_value(); }
  /// The measurement options of the run: a resumed journal's start record's, else open()'s.
  [[nodiscard]] const boost::json::object& options() const { return resumed_ ? resumed_->options : options_; }
  /// Completed trials and verdicts of the resumed journal, or the quarantine kept from a
  /// set-aside one (hang, wedged, crashed: "quarantined in the previous journal (...)").
  [[nodiscard]] strategies::TrialHistory history() const override { return history_; }
  /// Intent record of (config, quick), fsynced. A Stop (store_failed) when it cannot be written.
  /// `quick`: a minimum-samples trial (racing's first rung), journaled apart from a full one.
  std::optional<strategies::Stop> begin(const probe::Settings& config, bool quick) override;
  /// Result record of `trial`, fsynced. A Stop (store_failed) when it cannot be written.
  std::optional<strategies::Stop> record(const strategies::TrialResult& trial) override;
  /// Intent record of a trial of the settings as found ("baseline_intent"), fsynced. A Stop
  /// (store_failed) when it cannot be written.
  std::optional<strategies::Stop> begin_baseline(strategies::TrialKind kind, int index) override;
  /// Intent record of one confirmation unit ("unit_intent"), fsynced: a round skipped after a
  /// restart or a second death names the unit each death cut short. A Stop (store_failed)
  /// when it cannot be written.
  std::optional<strategies::Stop> begin_unit(const std::vector<probe::Settings>& contenders, int round, int pass,
                                             std::size_t unit) override;
  /// The baseline a resumed run measured already, if any.
  [[nodiscard]] std::optional<strategies::Baseline> saved_baseline() const override;
  /// Record the baseline measurement (durably). A Stop (store_failed) when it cannot be written.
  std::optional<strategies::Stop> record_baseline(const strategies::Baseline& baseline) override;
  /// Round `round` of the confirmation of `contenders` ([0] the baseline) as one journaled unit: taken
  /// from the journal when it completed before; skipped (Round::skipped says why) when it
  /// was in flight when the machine restarted, or when the process died in it twice; else
  /// `measure` between a durable intent record and a durable result record (a Stop from
  /// `measure` records no result: the round stays in flight). A record that cannot be
  /// written: a Stop (store_failed).
  strategies::Rounded confirm_round(const std::vector<probe::Settings>& contenders, int round,
                                    const strategies::RoundMeasure& measure) override;
  /// The run's wall seconds so far [s]: since open(), plus, on a resume, the interrupted run's
  /// (interrupted_run_s). Every record carries it ("run_s").
  [[nodiscard]] std::optional<double> run_seconds() const override;
  /// The wall seconds the interrupted run had run by its last record [s] (a journal without
  /// "run_s", from an older disktune: its baseline's and trials' measurement seconds); 0 for a
  /// new journal.
  [[nodiscard]] double interrupted_run_s() const { return interrupted_run_s_; }
  /// Record the end of the run (settings restored or not). A Stop (store_failed) when it
  /// cannot be written: the journal then stays unfinished (the next start restores from it).
  std::optional<strategies::Stop> finish(bool restored);
  /// Record that a run a signal stopped put its original settings back (a restore record marked
  /// "stopped"; the journal stays unfinished, for the next tune to resume): a refusal of the
  /// disk then owes no restore (pending_restore_note), nor does `apply`, and the attempt it
  /// stopped in counts as no death. A Stop (store_failed) when it cannot be written: the
  /// journal then still reads as owing one and the attempt as a death, which is only cautious.
  std::optional<strategies::Stop> record_restored();

 private:
  /// The journal file at `path`, locked and read (a torn last record cut off); nothing decided.
  RunJournal(const std::string& path, std::ostream& log);
  /// Every record goes through here: appended durably, a failed write a Stop (store_failed).
  std::optional<strategies::Stop> write(const boost::json::value& record);
  void resume_history();
  void carry_quarantine(const results::JournalState& state, std::ostream& log);
  bool accept_or_set_aside(const JournalOptions& journal, DeviceContext& context, const results::JournalIdentity& identity,
                           const boost::json::object& options, std::ostream& log);

  JournalFile file_;
  std::string boot_id_;
  std::chrono::steady_clock::time_point opened_ = std::chrono::steady_clock::now();
  double interrupted_run_s_ = 0.0;
  std::optional<results::JournalState> resumed_;
  boost::json::object options_;  // a new journal's, as its start record holds them
  strategies::TrialHistory history_;
};

/// The default journal's key for `context`'s device (default_journal_path): model and
/// serial follow the drive; a device without identify data is named by its kernel name; a
/// simulated one also by its seed, so runs with other seeds do not resume it.
std::string journal_key(const DeviceRequest& device, const DeviceContext& context);

/// Who a journal (or a probe record) of `context`'s device belongs to: its path, identify
/// model, serial and firmware, size and the running kernel.
results::JournalIdentity journal_identity(const DeviceContext& context);

/// `disktune restore`: put back the original settings recorded in the device's journal
/// (--journal or the default path; only its start record is needed, so a journal whose later
/// records are damaged still restores) and read them back, with the original scheduler's
/// tunables when the journal recorded them. Without a journal, a killed probe's record that
/// open_device_unprobed restored suffices (context.recovered_probe). Records a restore record and leaves
/// the journal unfinished: the next tune resumes it, quarantine kept. Throws RunError: 2 when
/// there is no journal (naming set-aside journals next to it, with the command that restores
/// from one), its start record is unreadable, or it belongs to another drive (another device
/// name or kernel: unless --force), 4 when a setting cannot be restored (the message names it).
void restore_from_journal(const JournalOptions& journal, const DeviceRequest& device, DeviceContext& context,
                          std::ostream& log);

}  // namespace disktune::tuner
