// SPDX-License-Identifier: GPL-2.0-or-later
// RunJournal: deciding new or resume, restoring from a journal, and journaled trials.
#include "tuner/journal/run_journal.hpp"

#include "probe/core/text.hpp"
#include "probe/linux/device_names.hpp"
#include "results/json_report.hpp"
#include "tuner/host/clock_text.hpp"
#include "tuner/host/shell_word.hpp"
#include "tuner/journal/changed_since_stop.hpp"
#include "tuner/journal/restore_recorded.hpp"
#include "tuner/journal/set_aside_hint.hpp"
#include "tuner/journal/resume_summary.hpp"
#include "tuner/run_error.hpp"

#include <boost/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace disktune::tuner {
namespace {

namespace json = boost::json;
using strategies::TrialResult;
using strategies::TrialStatus;


// The options a resume must not change, with the names a user knows them by.
constexpr std::pair<const char*, const char*> kCompared[] = {
    {"duration_s", "--duration"}, {"repeats", "--repeats"}, {"max_repeats", "--max-repeats"},
    {"strategy", "--strategy"}, {"seed", "--seed"}, {"method", "method"}, {"chunk_bytes", "chunk size [bytes]"},
    {"drop_behind_bytes", "drop-behind [bytes]"}, {"steady_stop", "--full-samples (steady stop)"},
    {"confirm_rounds", "confirmation rounds"}, {"objective", "--objective"}, {"metric", "--metric"},
    {"guard_objective", "--objective (the guarded B of A,B)"}, {"tolerance_pct", "--tolerance"}};

std::string option_text(const json::object& options, const char* key) {
  const auto* value = options.if_contains(key);
  if (!value) return "(not recorded)";
  if (value->is_string()) return std::string(value->as_string());
  if (!value->is_double()) return json::serialize(*value);
  return probe::printf_number("%g", value->as_double());
}

// "--duration 3 (journal) vs 1 (command line); ..." for every compared option that differs.
std::string option_differences(const json::object& journal, const json::object& now) {
  std::string text;
  for (const auto& [key, name] : kCompared) {
    const auto recorded = option_text(journal, key), wanted = option_text(now, key);
    if (recorded != wanted)
      text += (text.empty() ? "" : "; ") + std::string(name) + " " + recorded + " (journal) vs " + wanted + " (command line)";
  }
  return text;
}

probe::Result<results::JournalState> try_read_state(const JournalFile& file) {
  return results::read_journal(file.existing_text(), file.path());
}

TrialResult crashed(const probe::Settings& config, std::string why) {
  TrialResult trial;
  trial.settings = config;
  trial.status = TrialStatus::crashed;
  trial.detail = std::move(why);
  return trial;
}

// Settings recorded for one drive must never be applied to another: no --force for that.
void refuse_other_drive(const std::string& path, const results::JournalIdentity& journal,
                        const results::JournalIdentity& now, const std::string& refusal) {
  if (const auto diff = results::drive_difference(journal, now); !diff.empty())
    throw RunError(kExitUsage, "journal " + path + " belongs to another drive: " + diff + "; " + refusal);
}

// Why an unfinished attempt (an intent without a result) must not be run again (strategies::death_verdict).
std::string death_verdict(const results::PendingTrial& pending, const std::string& boot_id, const std::string& what) {
  return strategies::death_verdict(pending.last_boot_id, pending.attempts, boot_id, what);
}

// Why a journal cannot be resumed ("" when it can), and what to do about it.
std::pair<std::string, std::string> refusal_of(const probe::Result<results::JournalState>& state,
                                               const results::JournalIdentity& identity, bool force,
                                               const std::string& path) {
  const std::string fresh = "--fresh sets it aside and starts over";
  if (!state) return {state.error().message(), fresh};
  if (const auto drive = results::drive_difference(state->identity, identity); !drive.empty())
    return {"journal " + path + " belongs to another drive: " + drive + "; will not resume it on this one", fresh};
  if (const auto diff = results::identity_difference(state->identity, identity); !diff.empty() && !force)
    return {"journal " + path + " was recorded under another device name or kernel: " + diff,
            "--force resumes it anyway, " + fresh};
  return {"", ""};
}

// Put back the original settings a start record holds when it is this drive's (under this name
// and kernel, or any with --force) and adopt them (true): the device may hold a trial's settings.
bool put_back_recorded(const results::JournalState& start, const results::JournalIdentity& identity,
                       bool force, DeviceContext& context, const std::string& path, std::ostream& log) {
  const bool same = results::identity_difference(start.identity, identity).empty();
  if (!same && !(force && results::drive_difference(start.identity, identity).empty())) return false;
  restore_recorded(*context.device, start, "restore the settings recorded in " + path);
  log << "disktune: restored the original settings recorded in " << path << '\n';
  context.original = start.original;
  context.original_tunables = start.original_tunables;
  return true;
}

}  // namespace

// Journal name: model and serial follow the drive; a device without identify data is named
// by its kernel name; a simulated one also by its seed, so runs with other seeds do not resume it.
std::string journal_key(const DeviceRequest& device, const DeviceContext& context) {
  const bool simulated = context.device->simulated();
  std::string key = simulated ? "sim_" : "";
  if (context.identify && !context.identify->model.empty())
    key += context.identify->model + "_" + context.identify->serial;
  else
    key += probe::kernel_name(context.device->held().path);
  if (simulated) key += "_seed" + std::to_string(device.seed) + (device.sim_profile ? "_profile" : "");
  return key;
}

results::JournalIdentity journal_identity(const DeviceContext& context) {
  results::JournalIdentity id;
  id.path = context.device->path();
  if (context.identify) {
    id.model = context.identify->model;
    id.serial = context.identify->serial;
    id.firmware = context.identify->firmware;
  }
  if (auto io = context.device->open_io(probe::IoMode::buffered)) id.size_bytes = (*io)->size_bytes();
  id.kernel = kernel_release();
  if (!context.device->simulated()) {
    id.backing_file = probe::loop_backing_file(id.path).value_or("");
    id.backing_inode = probe::loop_backing_inode(id.path).value_or("");
    id.wwid = probe::block_wwid(id.path).value_or("");
  }
  return id;
}

RunJournal::RunJournal(const std::string& path, std::ostream& log) : file_(path), boot_id_(current_boot_id()) {
  if (file_.torn_bytes() > 0)
    log << "disktune: cut a torn last record (" << file_.torn_bytes() << " bytes, left by a crash) off "
        << file_.path() << '\n';
}

std::unique_ptr<RunJournal> RunJournal::open(const JournalOptions& given, const DeviceRequest& device,
                                             DeviceContext& context, const json::object& options, std::ostream& log) {
  std::unique_ptr<RunJournal> journal(
      new RunJournal(given.path.value_or(default_journal_path(journal_key(device, context))), log));
  const auto identity = journal_identity(context);
  if (!journal->file_.existing_text().empty() &&
      journal->accept_or_set_aside(given, context, identity, options, log))
    return journal;
  journal->file_.append(results::start_record(identity, journal->boot_id_, utc_timestamp(), context.original, options,
                                              context.original_tunables));
  journal->options_ = options;
  return journal;
}

// An existing journal: resumed (true), or set aside (false: a new one is started), or
// refused (RunError). The original settings its start record holds are put back first when it
// is this drive's and its records do not say they are back (the device may hold a trial's).
bool RunJournal::accept_or_set_aside(const JournalOptions& given, DeviceContext& context,
                                     const results::JournalIdentity& identity, const json::object& options,
                                     std::ostream& log) {
  auto state = try_read_state(file_);
  const auto start = results::interpret_start(file_.existing_text(), file_.path());
  const auto [refusal, remedy] = refusal_of(state, identity, given.force, file_.path());
  const bool this_drive = state && results::drive_difference(state->identity, identity).empty();
  // Put back already (a signal stop's or a restore's record): nothing to restore, and a change
  // since (an apply, a hand; under --force another name too) is neither overwritten nor denied.
  const bool back_at_stop = this_drive && !state->finished && state->settings_back;
  const std::string changed = back_at_stop ? changed_since(*state, context.original, context.original_tunables) : "";
  const bool settings_back = back_at_stop || (this_drive && state->restored) ||
                             (start && put_back_recorded(*start, identity, given.force, context, file_.path(), log));
  if (refusal.empty() && !state->finished && !given.fresh) {
    refuse_changed_since_stop(changed, file_.path(), context.device->path());
    if (const auto diff = option_differences(state->options, options); !diff.empty())
      throw RunError(kExitUsage, "journal " + file_.path() + " was recorded with other measurement options: " + diff +
                                     "; a resume would mix them (run with the journal's options to resume, or --fresh "
                                     "to set it aside and start over)");
    log << "disktune: resuming " << file_.path() << ": " << resume_summary(state->tune) << '\n';
    resumed_ = std::move(*state);
    interrupted_run_s_ = resumed_->run_s.value_or(results::measured_seconds(resumed_->tune));
    resume_history();
    return true;
  }
  // A finished journal of this drive holds nothing to resume or restore: recorded under another
  // device name or kernel, it is set aside. Another drive's stays refused (README, --force).
  const bool finished = this_drive && state->finished;
  if (!refusal.empty() && !given.fresh && !finished) throw RunError(kExitUsage, refusal + " (" + remedy + ")");
  if (this_drive) carry_quarantine(*state, log);
  const std::string aside = file_.set_aside();
  // Pruned at once when it measured nothing and its settings are back (prune_set_aside): not "kept".
  if (std::error_code ec; !std::filesystem::exists(aside, ec)) {
    log << "disktune: previous journal " << file_.path() << " removed: it measured nothing, and its settings are back\n";
    return false;
  }
  log << "disktune: previous journal kept as " << aside;
  if (finished && !refusal.empty())
    log << " (finished; " << refusal << ")";
  else if (!refusal.empty() || !state->finished)
    log << " (" << (refusal.empty() ? "unfinished" : refusal) << "); "
        << (!changed.empty() ? "the drive's settings changed since its own were put back: " + changed + "; " +
                                   restore_hint(context.device->path(), aside, start, identity)
            : settings_back ? "its original settings are back on the drive"
                            : restore_hint(context.device->path(), aside, start, identity));
  log << '\n';
  return false;
}

std::optional<strategies::Baseline> RunJournal::saved_baseline() const {
  if (!resumed_) return std::nullopt;
  return resumed_->tune.baseline;
}

std::optional<strategies::Stop> RunJournal::record_baseline(const strategies::Baseline& baseline) {
  return write(results::result_record(baseline, boot_id_));
}

// A value that hung, wedged or took the process down stays quarantined on this drive when its
// journal is set aside (--fresh), whatever the new run's options.
void RunJournal::carry_quarantine(const results::JournalState& state, std::ostream& log) {
  std::map<probe::Settings, TrialResult> kept;
  for (const auto& [key, trial] : state.tune.results)
    if (trial.status == TrialStatus::hang || trial.status == TrialStatus::wedged || trial.status == TrialStatus::crashed)
      kept.emplace(key.first, trial);
  for (const auto& [key, pending] : state.tune.pending)
    if (auto why = death_verdict(pending, boot_id_, "this trial"); !why.empty())
      kept.emplace(key.first, crashed(key.first, why));
  for (auto& [config, trial] : kept) {
    trial.detail = "quarantined in the previous journal (" + std::string(to_string(trial.status)) + "): " + trial.detail;
    history_.quarantined.emplace(config, std::move(trial));
  }
  if (!kept.empty())
    log << "disktune: " << kept.size() << " quarantined configuration(s) kept from the previous journal\n";
}

// What the resumed journal holds for the Evaluator: completed trials, and the verdict on each
// unfinished attempt that must not run again (one that died once in this boot runs once more).
void RunJournal::resume_history() {
  history_.results = resumed_->tune.results;
  if (const auto& in_flight = resumed_->tune.baseline_in_flight)
    history_.baseline_in_flight = strategies::judged_in(*in_flight, boot_id_);
  for (const auto& [key, pending] : resumed_->tune.pending)
    if (auto why = death_verdict(pending, boot_id_, "this trial"); !why.empty()) {
      TrialResult verdict = crashed(key.first, why + ": quarantined");
      verdict.quick = key.second;
      history_.crashed.emplace(key, std::move(verdict));
    }
}

std::optional<double> RunJournal::run_seconds() const {
  return interrupted_run_s_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_).count();
}

// A journal write that failed (disk full) stops the run like any other stop. Each record
// carries the run's time, so that a resume's elapsed time goes on from the last one.
std::optional<strategies::Stop> RunJournal::write(const json::value& record) {
  json::value timed = record;
  if (timed.is_object()) timed.as_object()["run_s"] = *run_seconds();
  if (const auto written = file_.write_record(timed); !written)
    return strategies::Stop{strategies::StopReason::store_failed, written.error().message(), std::nullopt};
  return std::nullopt;
}

std::optional<strategies::Stop> RunJournal::begin(const probe::Settings& config, bool quick) {
  return write(results::intent_record(config, quick, boot_id_));
}

std::optional<strategies::Stop> RunJournal::record(const TrialResult& trial) {
  return write(results::result_record(trial, boot_id_));
}

std::optional<strategies::Stop> RunJournal::begin_baseline(strategies::TrialKind kind, int index) {
  return write(results::baseline_intent_record(kind, index, boot_id_));
}

std::optional<strategies::Stop> RunJournal::begin_unit(const std::vector<probe::Settings>& contenders, int round,
                                                       int pass, std::size_t unit) {
  return write(results::unit_intent_record(contenders, round, pass, unit, boot_id_));
}

// " (in flight: the baseline (pass 1); no unit begun)": the unit each attempt died in, or ""
// when no attempt had begun a unit.
static std::string in_flight_text(const std::vector<std::string>& units) {
  std::string text;
  bool any = false;
  for (const auto& unit : units) {
    text += (text.empty() ? "" : "; ") + (unit.empty() ? std::string("no unit begun") : unit);
    any = any || !unit.empty();
  }
  return any ? " (in flight: " + text + ")" : "";
}

strategies::Rounded RunJournal::confirm_round(const std::vector<probe::Settings>& contenders, int round,
                                              const strategies::RoundMeasure& measure) {
  const results::RoundKey key{contenders, round};
  if (resumed_) {
    if (const auto done = resumed_->tune.rounds.find(key); done != resumed_->tune.rounds.end())
      return strategies::Round{done->second.results, done->second.skipped};
    if (const auto it = resumed_->tune.pending_rounds.find(key); it != resumed_->tune.pending_rounds.end())
      if (auto why = death_verdict(it->second, boot_id_, "the confirmation round"); !why.empty()) {
        strategies::Round skipped{{}, why + in_flight_text(it->second.in_flight) +
                                          ": the round is skipped; the answer is the search's best, unconfirmed"};
        if (auto stop = write(results::round_result_record(contenders, round, {}, skipped.skipped, boot_id_)))
          return std::move(*stop);
        return skipped;
      }
  }
  if (auto stop = write(results::round_intent_record(contenders, round, boot_id_))) return std::move(*stop);
  auto measured = measure(contenders);
  if (auto* stop = std::get_if<strategies::Stop>(&measured)) return std::move(*stop);
  auto& results = std::get<std::vector<TrialResult>>(measured);
  if (auto stop = write(results::round_result_record(contenders, round, results, "", boot_id_))) return std::move(*stop);
  return strategies::Round{std::move(results), ""};
}

// " and mq-deadline's tunables (iosched/read_expire=500, ...)", or "" when none were recorded.
static std::string tunables_text(const probe::SchedulerTunables& tunables) {
  if (tunables.values.empty()) return "";
  std::string text;
  for (const auto& [file, value] : tunables.values) text += (text.empty() ? "" : ", ") + file + "=" + value;
  return " and " + tunables.scheduler + "'s tunables (" + text + ")";
}

// What a restore from this journal means for what comes next (a damaged end record: unfinished).
static std::string restore_note(const results::JournalState& start, const std::string& text, const std::string& path) {
  if (start.kind == results::JournalKind::apply)
    return " (the apply is undone: 'disktune verify' of its report now shows the drift)";
  const auto state = results::read_journal(text, path);
  return state && state->finished ? " (that run had finished: the next tune starts a new journal)"
                                      : " (the journal stays unfinished: the next tune resumes it and keeps its quarantine)";
}

void restore_from_journal(const JournalOptions& journal, const DeviceRequest& device, DeviceContext& context,
                          std::ostream& log) {
  const std::string path = journal.path.value_or(default_journal_path(journal_key(device, context)));
  if (::access(path.c_str(), F_OK) != 0 && context.recovered_probe) return;  // that was all to restore
  if (::access(path.c_str(), F_OK) != 0)
    throw RunError(kExitUsage, "no journal for " + context.device->path() + " at " + path +
                                   set_aside_journals(context.device->path(), path) +
                                   (journal.path ? "" : " (a tune or apply run with --journal FILE: restore with --journal FILE)"));
  JournalFile file(path);
  const auto state = results::interpret_start(file.existing_text(), path);
  if (!state)
    throw RunError(kExitUsage, state.error().message() + ": the original settings it recorded cannot be read; nothing restored");
  const auto now = journal_identity(context);
  refuse_other_drive(path, state->identity, now, "will not apply its settings to this one, not even with --force");
  // Two loop devices over one file share its apply journal: --force must not put one's values on the other.
  if (state->identity.path != now.path && !now.backing_file.empty() &&
      probe::loop_backing_file(state->identity.path).value_or("") == now.backing_file)
    throw RunError(kExitUsage, "journal " + path + " holds the values of " + state->identity.path + ", another loop device "
                               "over " + now.backing_file + " still attached: " +
                               quoted_command({"disktune", "restore", state->identity.path}) +
                               " puts them back there; nothing restored (not even with --force)");
  if (const auto diff = results::identity_difference(state->identity, now); !diff.empty() && !journal.force)
    throw RunError(kExitUsage, "journal " + path + " was recorded under another device name or kernel: " + diff +
                                   " (--force restores anyway)");
  restore_recorded(*context.device, *state, "restore from " + path);
  file.append(results::restore_record(utc_timestamp(), current_boot_id()));
  const bool apply = state->kind == results::JournalKind::apply;
  log << "disktune: restored " << (apply ? "the values from before the apply: " : "the settings from before the tune: ")
      << probe::format_settings(state->original)
      << tunables_text(state->original_tunables) << " on " << context.device->path()
      << " from " << path << restore_note(*state, file.existing_text(), path) << '\n';
}

std::optional<strategies::Stop> RunJournal::record_restored() {
  return write(results::restore_record(utc_timestamp(), boot_id_, true));
}

std::optional<strategies::Stop> RunJournal::finish(bool restored) {
  return write(results::end_record(restored, utc_timestamp(), boot_id_));
}

}  // namespace disktune::tuner
