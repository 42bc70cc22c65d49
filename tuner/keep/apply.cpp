// SPDX-License-Identifier: GPL-2.0-or-later
// run_apply and the apply journal.
#include "tuner/device/open_device.hpp"
#include "tuner/keep/apply.hpp"

#include "tuner/device/hold.hpp"

#include "probe/linux/device_names.hpp"
#include "probe/watch/kmsg_reader.hpp"
#include "results/journal.hpp"
#include "tuner/host/clock_text.hpp"
#include "tuner/host/device_lock.hpp"
#include "tuner/host/emulation.hpp"
#include "tuner/keep/apply_write.hpp"
#include "tuner/keep/drive_match.hpp"
#include "tuner/host/input_file.hpp"
#include "tuner/host/shell_word.hpp"
#include "tuner/journal/journal_file.hpp"
#include "tuner/trial/settings_writer.hpp"
#include "tuner/journal/run_journal.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <unistd.h>

namespace disktune::tuner {
namespace {

namespace json = boost::json;

std::optional<results::JournalState> state_of(std::string_view text, const std::string& path) {
  auto state = results::read_journal(text, path);
  if (!state) return std::nullopt;
  return std::move(*state);
}

std::optional<results::JournalState> read_state(const JournalFile& file) {
  return state_of(file.existing_text(), file.path());
}

// The journal at `path` as JournalState, read without opening it for writing; nullopt when
// absent or unreadable.
std::optional<results::JournalState> peek_state(const std::string& path) {
  const auto text = read_whole_file(path);
  if (!text) return std::nullopt;
  return state_of(*text, path);
}

// A tune of this drive that stopped (killed, a crash) and was not restored since may have
// left a trial's settings on it: they would be journaled as "the values found" and `restore`
// would end at them. Refused until `disktune restore` has put the tune's originals back (also
// after a tune whose own restore failed: its end record says so).
void refuse_after_stopped_tune(const DeviceRequest& device, const DeviceContext& context, const std::string& report) {
  const auto path = default_journal_path(journal_key(device, context));
  const auto state = peek_state(path);
  if (!state || state->settings_back) return;
  if (!results::drive_difference(state->identity, journal_identity(context)).empty()) return;
  throw RunError(kExitUsage, "apply " + report + ": the tune journal " + path + " of " + context.device->path() +
                                 (state->finished ? " ended without restoring its settings (its restore failed)"
                                                  : " is unfinished (a tune stopped, perhaps in a trial's settings)") +
                                 ": " +
                                 quoted_command({"disktune", "restore", context.device->path()}) +
                                 " puts its original settings back first; nothing applied");
}

// The command that undoes this apply, with its --journal when one was given.
std::string restore_command(const std::string& device, const std::optional<std::string>& journal) {
  std::vector<std::string> words{"disktune", "restore", path_word(device)};
  if (journal) words.insert(words.end(), {"--journal", path_word(*journal)});
  return shell_command(words);
}

// The command in a sentence, up to "puts back": 'COMMAND' when none of its words needed
// quoting, else after "undo with:", so the shell quotes inside are the ones to paste.
std::string restore_hint(const std::string& command) {
  if (command.find('\'') == std::string::npos) return "'" + command + "' puts back";
  return "undo with: " + command + ", which puts back";
}

// An existing journal that is not an apply journal (a tune's, given as --journal): refused.
void refuse_other_journal(const std::optional<results::JournalState>& state, const std::string& path) {
  if (!state || state->kind == results::JournalKind::apply) return;
  throw RunError(kExitUsage, "journal " + path + " is not an apply journal (a tune's): give apply its own; nothing applied");
}


// Two loop devices over one file share the file's apply journal, which holds one device's values
// found: an apply in effect on the other device (still over this file) would lose them.
void refuse_twin_loop(const std::string& recorded, const results::JournalIdentity& now, const std::string& journal) {
  if (recorded == now.path || now.backing_file.empty()) return;
  if (probe::loop_backing_file(recorded).value_or("") != now.backing_file) return;  // renumbered since: the same device
  throw RunError(kExitUsage, "an apply is in effect on " + recorded + ", another loop device over " + now.backing_file +
                                 " (apply journal " + journal + " holds its values found): " +
                                 quoted_command({"disktune", "restore", recorded}) +
                                 " first, or give this one its own --journal; nothing applied");
}

// Start the apply journal, or keep it: while an apply is in effect its start record holds the
// values from before the first apply, which `restore` must go back to.
OpenedApplyJournal open_apply_journal(JournalFile& file, const DeviceContext& context, const std::string& report,
                                      std::ostream& log) {
  const auto identity = journal_identity(context);
  if (!file.existing_text().empty()) {
    const auto state = read_state(file);
    refuse_other_journal(state, file.path());
    if (state && !results::drive_difference(state->identity, identity).empty())
      throw RunError(kExitUsage, "apply journal " + file.path() + " belongs to another drive: " +
                                     results::drive_difference(state->identity, identity) +
                                     "; nothing applied (its values found are never written to this drive: move it "
                                     "away, e.g. " + quoted_command({"mv", path_word(file.path()), path_word(file.path()) + ".old"}) +
                                     ", and apply again)");
    if (state && state->apply.in_effect) {
      refuse_twin_loop(state->identity.path, identity, file.path());
      log << "disktune: an apply is in effect (" << file.path() << "): keeping the values recorded before it ("
          << probe::format_settings(state->original) << ") for " << quoted_command({"disktune", "restore"}) << '\n';
      return {state->original, state->apply.report.empty() ? "an interrupted apply" : state->apply.report};
    }
    log << "disktune: previous apply journal kept as " << file.set_aside()
        << (state ? " (restored since)\n" : " (unreadable)\n");
  }
  const json::object options{{"command", "apply"}, {"report", report}};
  file.append(results::start_record(identity, current_boot_id(), utc_timestamp(), context.original, options,
                                    context.original_tunables));
  return {context.original, std::nullopt};
}

// The values before the first apply, for the changed settings only: what `restore` puts back.
probe::Settings found_values(const probe::Settings& original, const probe::Settings& changes) {
  probe::Settings found;
  for (const auto& [id, value] : changes)
    if (const auto it = original.find(id); it != original.end()) found.emplace(id, it->second);
  return found;
}

// The changes `target` cannot hold, as "fifo_batch=3 is a tunable of mq-deadline and the
// device would run none": with_changes drops a scheduler tunable of another scheduler than
// the target's. Empty when the target holds every change.
std::string unheld_changes(const probe::Settings& changes, const probe::Settings& target) {
  std::string text;
  const auto scheduler = target.find(probe::SettingId::scheduler);
  const std::string runs = scheduler == target.end()
                               ? "no scheduler"
                               : probe::format_value(probe::SettingId::scheduler, scheduler->second);
  for (const auto& [id, value] : probe::in_apply_order(changes)) {
    if (const auto it = target.find(id); it != target.end() && it->second == value) continue;
    text += (text.empty() ? "" : "; ") + std::string(probe::setting_name(id)) + "=" + probe::format_value(id, value) +
            (probe::is_scheduler_tunable(id)
                 ? " is a tunable of " + std::string(probe::setting_info(id).scheduler) + " and the device would run " + runs
                 : " is not held by the configuration");
  }
  return text;
}

}  // namespace

results::SavedReport read_report(const std::string& option, const std::string& path, bool check_winner) {
  check_input_file(option, path);
  const auto text = read_whole_file(path);
  if (!text) throw RunError(kExitUsage, option + " " + path + ": cannot be read");
  auto report = results::parse_saved_report(*text, path, check_winner);
  if (!report) throw RunError(kExitUsage, report.error().op);  // "report FILE: why" (no errno text)
  return std::move(*report);
}

std::string apply_journal_path(const std::optional<std::string>& journal_path, const DeviceRequest& device,
                               const DeviceContext& context) {
  if (journal_path) return *journal_path;
  const auto backing = probe::loop_backing_file(context.device->held().path);
  return default_journal_path((backing ? unique_journal_key("loop", *backing) : journal_key(device, context)) + ".apply");
}

std::optional<results::JournalState> apply_journal_state(const DeviceRequest& device, const DeviceContext& context) {
  return peek_state(apply_journal_path(std::nullopt, device, context));
}

namespace {

// One report's apply (run_apply's steps). Throws RunError.
ExitCode apply_one(const ApplyOptions& options, const std::string& option, const std::string& file,
                   std::ostream& out, std::ostream& err) {
  const auto report = read_report(option, file);
  if (report.changes.empty()) {
    out << "disktune: " << report.file << " recommends keeping the baseline: nothing to apply\n";
    return kExitOk;
  }
  const auto found = find_drive(report, options.device_named ? std::optional(options.device.spec) : std::nullopt);
  if (!found.path)
    throw RunError(found.other_drive || found.ambiguous || !has_stable_identity(report.device) ? kExitUsage : kExitDevice,
                   "apply " + report.file + ": " + found.why_not + "; nothing applied");
  DeviceRequest on = options.device;
  on.spec = *found.path;
  const DeviceLock lock(on.spec);  // first: another disktune command's claim is not a use
  refuse_device_in_use(on, "apply to");
  auto context = open_device_unprobed(on, err);
  hold_device(context, lock, on, "apply to");
  // Checked again under the lock: the candidate was found before it was held.
  if (const auto diff = identity_difference(report.device, describe_device(context)); !diff.empty())
    throw RunError(kExitUsage, "apply " + report.file + ": " + on.spec + " is another drive: " + diff);
  refuse_after_stopped_tune(on, context, report.file);
  const auto target = probe::with_changes(context.original, report.changes);
  if (const auto unheld = unheld_changes(report.changes, target); !unheld.empty())
    throw RunError(kExitDevice, "apply " + report.file + ": " + unheld + " (" + on.spec + "); nothing applied");
  JournalFile journal(apply_journal_path(options.journal_path, on, context));
  const auto opened = open_apply_journal(journal, context, report.file, err);
  journal.append(results::apply_record(target, false, report.file, utc_timestamp(), current_boot_id()));
  write_or_put_back(SettingsWriter(*context.device), journal, target, context.original, opened,
                "apply " + probe::format_settings(report.changes) + " on " + on.spec);
  journal.append(results::apply_record(target, true, report.file, utc_timestamp(), current_boot_id(), kernel_log_mark()));
  out << "disktune: applied " << probe::format_settings(report.changes) << " on " << device_label(on.spec)
      << " (every value read back); journal " << journal.path() << "; "
      << restore_hint(restore_command(on.spec, options.journal_path)) << ' '
      << probe::format_settings(found_values(opened.before, report.changes)) << '\n';
  return kExitOk;
}

}  // namespace

std::vector<std::string> config_reports(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> files;
  // Whatever its type: read_report names one that is no regular file (a FIFO, a device, a
  // directory, a dangling link) without opening it, where a filter here dropped it unsaid.
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  if (ec) throw RunError(kExitUsage, "--config " + dir + ": " + ec.message());
  if (files.empty()) throw RunError(kExitUsage, "--config " + dir + ": no reports (*.json) in it");
  std::sort(files.begin(), files.end());
  return files;
}

ExitCode run_apply(const ApplyOptions& options, std::ostream& out, std::ostream& err) {
  if (!options.config_dir) return apply_one(options, "REPORT", options.report, out, err);
  // At boot (disktune-apply.service) or after resume: every drive of DIR; an absent one (a
  // removed disk) is said and skipped, a failing one does not stop the others.
  ExitCode worst = kExitOk;
  for (const auto& file : config_reports(*options.config_dir)) {
    try {
      apply_one(options, "--config", file, out, err);
    } catch (const RunError& e) {
      const bool absent = std::string_view(e.what()).find("the drive is absent") != std::string_view::npos;
      err << "disktune: " << e.what() << (absent ? " (skipped)" : "") << '\n';
      if (!absent && worst == kExitOk) worst = e.code();
    }
  }
  return worst;
}

}  // namespace disktune::tuner
