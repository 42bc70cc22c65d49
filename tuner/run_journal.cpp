// SPDX-License-Identifier: GPL-2.0-or-later
// RunJournal: deciding new or resume, restoring from a journal, and journaled trials.
#include "tuner/run_journal.hpp"

#include "probe/device_names.hpp"
#include "results/json_report.hpp"
#include "tuner/clock_text.hpp"
#include "tuner/run_error.hpp"

#include <boost/json.hpp>

#include <unistd.h>

namespace disktune::tuner {
namespace {

namespace json = boost::json;
using strategies::TrialResult;
using strategies::TrialStatus;

results::JournalIdentity identity_of(DeviceContext& context) {
  results::JournalIdentity id;
  id.path = context.device->path();
  if (context.identify) {
    id.model = context.identify->model;
    id.serial = context.identify->serial;
    id.firmware = context.identify->firmware;
  }
  if (auto io = context.device->open_io(probe::IoMode::buffered)) id.size_bytes = (*io)->size_bytes();
  id.kernel = kernel_release();
  return id;
}

// Journal name: model and serial follow the drive; a device without identify data is named
// by its kernel name; a simulated one also by its seed, so runs with other seeds do not resume it.
std::string journal_key(const Config& config, const DeviceContext& context) {
  const bool simulated = context.device->simulated();
  std::string key = simulated ? "sim_" : "";
  if (context.identify && !context.identify->model.empty())
    key += context.identify->model + "_" + context.identify->serial;
  else
    key += probe::kernel_name(context.device->path());
  if (simulated) key += "_seed" + std::to_string(config.seed) + (config.sim_profile ? "_profile" : "");
  return key;
}

json::object options_of(const Config& config) {
  return {{"strategy", config.strategy}, {"seed", config.seed}, {"repeats", config.repeats},
          {"duration_s", config.duration_s}};
}

results::JournalState read_state(const JournalFile& file) {
  auto decoded = results::decode_journal(file.existing_text(), file.path());
  if (!decoded) throw RunError(kExitUsage, decoded.error().message() + " (use --fresh to start over)");
  auto state = results::interpret_journal(*decoded, file.path());
  if (!state) throw RunError(kExitUsage, state.error().message() + " (use --fresh to start over)");
  return std::move(*state);
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

}  // namespace

RunJournal::RunJournal(const Config& config, DeviceContext& context, std::ostream& log)
    : file_(config.journal_path.value_or(default_journal_path(journal_key(config, context)))),
      boot_id_(current_boot_id()) {
  const auto identity = identity_of(context);
  if (!file_.existing_text().empty()) {
    auto state = read_state(file_);
    refuse_other_drive(file_.path(), state.identity, identity,
                       "will not resume it on this one (--fresh sets it aside and starts over)");
    if (const auto diff = results::identity_difference(state.identity, identity); !diff.empty() && !config.force)
      throw RunError(kExitUsage, "journal " + file_.path() + " was recorded under another device name or kernel: " + diff +
                                     " (--force resumes it anyway, --fresh starts over)");
    if (!state.restored) {
      // After a crash the device may still hold a trial's settings: put the recorded ones back.
      if (auto restored = context.device->restore(state.original); !restored)
        throw RunError(kExitRestoreFailed, "restore the settings recorded in " + file_.path() + ": " +
                                               restored.error().message());
      log << "disktune: restored the original settings recorded in " << file_.path() << '\n';
      context.original = state.original;
    }
    if (state.finished || config.fresh) {
      log << "disktune: previous journal kept as " << file_.set_aside() << '\n';
    } else {
      log << "disktune: resuming " << file_.path() << ": " << state.results.size() << " trials done, "
          << state.pending.size() << " in flight when it stopped\n";
      resumed_ = std::move(state);
      return;
    }
  }
  file_.append(results::start_record(identity, boot_id_, utc_timestamp(), context.original, options_of(config)));
}

std::optional<BaselineMeasurement> RunJournal::saved_baseline() const {
  if (!resumed_ || !resumed_->baseline) return std::nullopt;
  const auto& figures = resumed_->baseline_figures;
  BaselineMeasurement baseline;
  baseline.trial = *resumed_->baseline;
  baseline.cached_median_mib_s = figures.cached_mib_s;
  baseline.data_crc32 = figures.data_crc32;
  baseline.aa_samples_mib_s = figures.aa_samples_mib_s;
  baseline.noise_floor_pct = figures.noise_floor_pct;
  return baseline;
}

void RunJournal::record_baseline(const BaselineMeasurement& baseline) {
  file_.append(results::result_record(baseline.trial, boot_id_,
                                      results::BaselineFigures{baseline.cached_median_mib_s, baseline.data_crc32,
                                                               baseline.aa_samples_mib_s, baseline.noise_floor_pct}));
}

std::optional<TrialResult> RunJournal::verdict_for_pending(const probe::Settings& config, bool quick) {
  if (!resumed_) return std::nullopt;
  const auto it = resumed_->pending.find({config, quick});
  if (it == resumed_->pending.end()) return std::nullopt;
  if (it->second.last_boot_id != boot_id_)
    return crashed(config, "the machine restarted during this trial (boot id changed): quarantined");
  if (it->second.attempts >= 2)
    return crashed(config, "the process died in this trial twice: quarantined");
  return std::nullopt;  // died once in this boot: run it once more
}

TrialResult RunJournal::run(const probe::Settings& config, bool quick,
                            const std::function<TrialResult(const probe::Settings&)>& measure) {
  if (resumed_)
    if (const auto done = resumed_->results.find({config, quick}); done != resumed_->results.end())
      return done->second;
  TrialResult trial;
  if (auto verdict = verdict_for_pending(config, quick)) {
    trial = std::move(*verdict);
    trial.quick = quick;
  } else {
    file_.append(results::intent_record(config, quick, boot_id_));
    trial = measure(config);
  }
  file_.append(results::result_record(trial, boot_id_));
  return trial;
}

void restore_from_journal(const Config& config, DeviceContext& context, std::ostream& log) {
  const std::string path = config.journal_path.value_or(default_journal_path(journal_key(config, context)));
  if (::access(path.c_str(), F_OK) != 0) throw RunError(kExitUsage, "no journal for " + context.device->path() + " at " + path);
  JournalFile file(path);
  const auto state = read_state(file);
  refuse_other_drive(path, state.identity, identity_of(context),
                     "will not apply its settings to this one, not even with --force");
  if (const auto diff = results::identity_difference(state.identity, identity_of(context)); !diff.empty() && !config.force)
    throw RunError(kExitUsage, "journal " + path + " was recorded under another device name or kernel: " + diff +
                                   " (--force restores anyway)");
  if (auto restored = context.device->restore(state.original); !restored)
    throw RunError(kExitRestoreFailed, "restore from " + path + ": " + restored.error().message());
  file.append(results::end_record(true, utc_timestamp(), current_boot_id()));
  log << "disktune: restored " << probe::format_settings(state.original) << " on " << context.device->path()
      << " from " << path << '\n';
}

void RunJournal::finish(bool restored) { file_.append(results::end_record(restored, utc_timestamp(), boot_id_)); }

}  // namespace disktune::tuner
