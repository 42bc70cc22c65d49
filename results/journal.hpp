// SPDX-License-Identifier: GPL-2.0-or-later
// The crash-safe journal's record format: self-delimiting, checksummed lines, and their meaning.
#pragma once

#include "probe/device.hpp"
#include "probe/core/error.hpp"
#include "results/codec/settings_codec.hpp"
#include "probe/settings.hpp"
#include "results/journal_identity.hpp"
#include "strategies/baseline.hpp"
#include "strategies/trial.hpp"
#include "strategies/trial_executor.hpp"
#include "strategies/trial_store.hpp"

#include <boost/json/value.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::results {

/// One record on disk: `DTJ1 <length> <crc32 as 8 hex digits> <json>\n`, where length is the
/// byte length of <json> and crc32 its CRC-32 (Boost.CRC crc_32_type). A record cut short by
/// a crash (the last line: no newline, wrong length or CRC) is detected and ignored.
std::string encode_record(const boost::json::value& record);

/// Decoded journal text: the valid records in order, and what was ignored.
struct DecodedJournal {
  std::vector<boost::json::object> records;
  bool torn_tail = false;  ///< the last record was incomplete or failed its checksum: ignored
  std::size_t valid_bytes = 0;  ///< length of the text up to the end of the last valid record [bytes]
};

/// Whether `text` can be the start of a journal record as encode_record writes it: it opens
/// with the record magic and a space ("DTJ1 "), or is a piece of that (a record torn after its
/// first bytes). What does not is no disktune journal: a file named as one by mistake.
bool starts_like_record(std::string_view text);

/// Decode a whole journal. A bad record before the last is not a torn write but damage:
/// errc::invalid_argument naming the line and the reason (`name` = the file, for messages).
probe::Result<DecodedJournal> decode_journal(std::string_view text, const std::string& name);


/// Record builders. Every record carries "type" and the kernel's boot id.
/// The start record also keeps the original scheduler's own tunables ("scheduler_tunables":
/// {"scheduler": name, "values": [[file, text], ...]}; omitted when there are none), which a
/// scheduler switch resets and no setting holds.
boost::json::value start_record(const JournalIdentity& identity, const std::string& boot_id,
                                const std::string& started_at, const probe::Settings& original,
                                const boost::json::object& options, const probe::SchedulerTunables& tunables = {});
boost::json::value intent_record(const probe::Settings& config, bool quick, const std::string& boot_id);
/// A trial's result (not the baseline's).
boost::json::value result_record(const strategies::TrialResult& trial, const std::string& boot_id);
/// The baseline's result, with the figures a resumed run needs to compare data and speed
/// against the same baseline without measuring it again.
boost::json::value result_record(const strategies::Baseline& baseline, const std::string& boot_id);
boost::json::value end_record(bool restored, const std::string& finished_at, const std::string& boot_id);
/// `disktune restore` put the original settings back. Unlike an end record it leaves the
/// journal unfinished: the next tune resumes it and keeps its quarantine. `stopped`: written by
/// the run itself as a signal stopped it ("stopped": true), so the attempt it was in did not
/// die: interpret_journal takes that attempt back (no death counts against it).
boost::json::value restore_record(const std::string& restored_at, const std::string& boot_id, bool stopped = false);
/// Where the kernel log stood when an apply completed: verify takes the records of the same
/// boot with a higher sequence number as logged after it (tuner/keep/drift_cause.hpp).
struct KernelLogMark {
  std::uint64_t seq = 0;             ///< the last /dev/kmsg record's sequence number then
  std::uint64_t monotonic_usec = 0;  ///< CLOCK_MONOTONIC then [µs], against the records' printk clock
  bool operator==(const KernelLogMark&) const = default;
};

/// `disktune apply` (an apply journal, apart from the tune journal): `settings` (the whole
/// configuration) is about to be written (done false) or was written and read back (done
/// true), from the report at `report`. `mark` (done records; nullopt without /dev/kmsg) is
/// kept as "kernel_log": {"seq", "monotonic_usec"}; a record without it (written before it
/// existed, or without a kernel log) reads as no mark.
boost::json::value apply_record(const probe::Settings& settings, bool done, const std::string& report,
                                const std::string& at, const std::string& boot_id,
                                const std::optional<KernelLogMark>& mark = std::nullopt);
/// Round `round` (0, then the extra rounds) of the confirmation of `contenders` ([0] the
/// baseline) is about to change the device.
boost::json::value round_intent_record(const std::vector<probe::Settings>& contenders, int round,
                                       const std::string& boot_id);
/// One unit of that round is about to change the device: contender `unit` ([0] the baseline) in
/// pass `pass` (1-based) of the round's call. Each unit's intent names what was in flight.
boost::json::value unit_intent_record(const std::vector<probe::Settings>& contenders, int round, int pass,
                                      std::size_t unit, const std::string& boot_id);
/// A trial of the settings as found is about to run: `kind` baseline, baseline_repeat or
/// baseline_check, `index` 0 for a first trial (a new attempt at the baseline), 1.. for the
/// noise repeats. Kept as "kind" ("baseline", "baseline_repeat", "baseline_check") and "index".
boost::json::value baseline_intent_record(strategies::TrialKind kind, int index, const std::string& boot_id);
/// The round's results, one per contender; or, with `skipped` set, why it was not run.
boost::json::value round_result_record(const std::vector<probe::Settings>& contenders, int round,
                                       const std::vector<strategies::TrialResult>& results,
                                       const std::string& skipped, const std::string& boot_id);

/// A trial that was started (intent) and never recorded a result.
struct PendingTrial {
  probe::Settings config;
  int attempts = 0;               ///< intents without a result for this configuration
  std::string last_boot_id;       ///< boot id of the latest such intent
  /// A confirmation round's: per attempt, the unit last begun in it ("" before any unit):
  /// "the baseline" or the contender's changes from it, with its pass.
  std::vector<std::string> in_flight;
};

/// A completed (or skipped) confirmation round.
/// A confirmation round's identity in a journal: its contenders ([0] the baseline) and its
/// number (strategies::ConfirmRunner's `round`; records without one are round 0).
using RoundKey = std::pair<std::vector<probe::Settings>, int>;

struct RoundRecord {
  std::vector<strategies::TrialResult> results;  ///< one per contender; empty when skipped
  std::string skipped;                           ///< why the round was not run ("" when it ran)
};

/// What wrote a journal, from its start record's options: `apply` ("command": "apply"), or a
/// tune run (no command). Each kind holds only its own records: a tune journal trials,
/// baseline and confirmation rounds; an apply journal apply records; both restore and end records.
enum class JournalKind { tune, apply };

/// A tune journal's own records: its baseline, trials and confirmation rounds.
struct TuneRecords {
  std::optional<strategies::Baseline> baseline;  ///< measured_s is its trial's (not journaled)
  /// Completed trials and started-but-unfinished ones, keyed by configuration and effort
  /// (a quick, minimum-samples trial and a full one of the same configuration differ).
  std::map<std::pair<probe::Settings, bool>, strategies::TrialResult> results;
  std::map<std::pair<probe::Settings, bool>, PendingTrial> pending;
  /// Confirmation rounds, keyed by their contenders ([0] the baseline) and round number (0,
  /// then the extra rounds close contenders get); a pending round's PendingTrial::config is
  /// its baseline.
  std::map<RoundKey, RoundRecord> rounds;
  std::map<RoundKey, PendingTrial> pending_rounds;
  /// Trials of the settings as found begun since the last baseline record (nullopt: none).
  std::optional<strategies::BaselineInFlight> baseline_in_flight;
  /// The attempt the last intent record began, until its result: what a signal stop's restore
  /// record (restore_record's `stopped`) takes back. Interpretation state, not a record.
  struct Begun {
    enum class Kind { none, trial, round, baseline } kind = Kind::none;
    std::pair<probe::Settings, bool> trial{};  ///< kind trial: its key in pending
    RoundKey round{};                          ///< kind round: its key in pending_rounds
  } last_begun{};
};

/// The measurement seconds [s] of `records`' baseline and completed trials (the guard
/// objective's included: strategies::measurement_seconds): the run time of a journal whose
/// records carry no "run_s".
double measured_seconds(const TuneRecords& records);

/// An apply journal's own records: the configuration of its last apply record, whether that
/// apply completed, and whether it is in effect (no restore record after it).
struct ApplyRecords {
  std::optional<probe::Settings> applied;
  bool done = false;
  bool in_effect = false;
  std::string at;                           ///< the last completed apply's time (UTC)
  std::string report;                       ///< the last completed apply's report (its "report")
  std::string boot_id;                      ///< the boot id it was applied in
  std::optional<KernelLogMark> kernel_log;  ///< where the kernel log stood then, if recorded
};

/// The meaning of a decoded journal: what its start record says, its kind's own records
/// (the other kind's stay empty: interpret_journal refuses them), and the restore and end
/// records both kinds take.
struct JournalState {
  JournalKind kind = JournalKind::tune;           ///< from the start record
  JournalIdentity identity;
  std::string boot_id;                            ///< of the start record
  probe::Settings original;                       ///< settings before any change
  probe::SchedulerTunables original_tunables;     ///< the original scheduler's; empty when not recorded
  boost::json::object options;
  TuneRecords tune;                               ///< a tune journal's; empty in an apply journal
  ApplyRecords apply;                             ///< an apply journal's; empty in a tune journal
  int restores = 0;                               ///< `disktune restore` runs recorded
  std::string restored_at;                        ///< the last restore record's time (UTC)
  /// The run's wall seconds when its last record was written ("run_s", which every record of
  /// a tune journal carries); nullopt when no record carries one (an older disktune's journal).
  std::optional<double> run_s;
  bool finished = false;                          ///< an end record was written
  bool restored = false;                          ///< ... and it says the settings were restored
  /// The device holds the start record's originals as far as the journal knows: a restore
  /// record, or an end record saying restored, came after the last record that may have put
  /// other settings on it (a trial's intent, a round's or unit's, an apply). False in a journal
  /// with neither (killed in its first trial, or a resumed run killed after a restore).
  bool settings_back = false;
};

/// Interpret decoded records. Errors: errc::invalid_argument when the first record is not a
/// start record, a record lacks a field (naming the record number and field), or a record
/// belongs to the other kind of journal (an apply record in a tune journal, a trial in an
/// apply journal).
probe::Result<JournalState> interpret_journal(const DecodedJournal& journal, const std::string& name);

/// A journal's text as its state: decode_journal, then interpret_journal. The one reader every
/// command uses (tune, restore, apply, verify, setting aside). Errors: as those two.
probe::Result<JournalState> read_journal(std::string_view text, const std::string& name);

/// Interpret only the start record (the first line) of a journal: identity, boot id,
/// original settings and options; the rest of the state stays empty. For `restore` and for
/// setting aside a journal whose later records are damaged.
/// Errors: errc::invalid_argument when the first line is not a complete start record.
probe::Result<JournalState> interpret_start(std::string_view text, const std::string& name);

}  // namespace disktune::results
