// SPDX-License-Identifier: GPL-2.0-or-later
// RunJournal: resume, quarantine and durable trial records for one tune run.
#pragma once

#include "results/journal.hpp"
#include "tuner/config.hpp"
#include "tuner/device_context.hpp"
#include "tuner/journal_file.hpp"
#include "tuner/trial_runner.hpp"

#include <functional>
#include <optional>
#include <ostream>

namespace disktune::tuner {

/// The journal side of a tune run (DESIGN.md "Hangs, crashes and reboots"; issue 4):
/// - a finished journal, or --fresh, is set aside and a new one started;
/// - an unfinished one is resumed: the original settings it recorded are restored first
///   (the device may be in a trial's state after a crash), completed trials are taken from
///   it, and a trial with an intent but no result is judged: a reboot since (boot id
///   changed) or a second unfinished attempt makes it `crashed` (quarantined); a first
///   unfinished attempt in the same boot is run once more;
/// - a journal of another drive or kernel is refused unless --force.
class RunJournal {
 public:
  /// Open the journal for `context`'s device and decide new/resume; may change
  /// context.original to the journal's. Throws RunError (2: damaged journal, other drive,
  /// lock held; 4: the recorded original settings could not be restored).
  RunJournal(const Config& config, DeviceContext& context, std::ostream& log);

  [[nodiscard]] const std::string& path() const { return file_.path(); }
  /// The baseline a resumed run measured already, if any.
  [[nodiscard]] std::optional<BaselineMeasurement> saved_baseline() const;
  /// Record the baseline measurement (durably).
  void record_baseline(const BaselineMeasurement& baseline);
  /// The result of `config`: from the journal, a `crashed` verdict, or `measure` run between
  /// a durable intent record and a durable result record.
  /// `quick`: a minimum-samples trial (racing's first rung), journaled apart from a full one.
  strategies::TrialResult run(const probe::Settings& config, bool quick,
                              const std::function<strategies::TrialResult(const probe::Settings&)>& measure);
  /// Record the end of the run (settings restored or not).
  void finish(bool restored);

 private:
  std::optional<strategies::TrialResult> verdict_for_pending(const probe::Settings& config, bool quick);

  JournalFile file_;
  std::string boot_id_;
  std::optional<results::JournalState> resumed_;
};

/// `disktune restore`: put back the original settings recorded in the device's journal
/// (--journal or the default path) and read them back. Throws RunError: 2 when there is no
/// journal or it is damaged or belongs to another drive (unless --force), 4 when a setting
/// cannot be restored (the message names it).
void restore_from_journal(const Config& config, DeviceContext& context, std::ostream& log);

}  // namespace disktune::tuner
