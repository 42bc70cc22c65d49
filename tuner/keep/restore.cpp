// SPDX-License-Identifier: GPL-2.0-or-later
// `disktune restore`: which journals hold what this drive had before, put back in order.
#include "tuner/keep/restore.hpp"

#include "results/journal.hpp"
#include "tuner/device/open_device.hpp"
#include "tuner/host/device_lock.hpp"
#include "tuner/host/input_file.hpp"
#include "tuner/journal/journal_file.hpp"
#include "tuner/keep/apply.hpp"

namespace disktune::tuner {
namespace {

// The default tune journal exists and its start record is this drive's (results::drive_difference).
bool tune_journal_of_this_drive(const DeviceRequest& device, const DeviceContext& context) {
  const std::string path = default_journal_path(journal_key(device, context));
  const auto text = read_whole_file(path);
  if (!text) return false;
  const auto start = results::interpret_start(*text, path);
  return start && results::drive_difference(start->identity, journal_identity(context)).empty();
}

}  // namespace

ExitCode run_restore(const RestoreOptions& options, std::ostream& err) {
  const DeviceLock lock(options.device.spec);
  auto context = open_device_unprobed(options.device, err);
  const auto& given = options.journal.path;
  const auto apply_state = given ? std::nullopt : apply_journal_state(options.device, context);
  const bool applied = apply_state && apply_state->apply.in_effect;
  // Only an apply journal, its apply undone already: nothing to put back (not "no journal").
  if (apply_state && !applied && !given && !tune_journal_of_this_drive(options.device, context) &&
      !context.recovered_probe) {
    err << "disktune: nothing to restore on " << context.device->path() << ": the apply recorded in "
        << apply_journal_path(std::nullopt, options.device, context) << " was undone"
        << (apply_state->restored_at.empty() ? std::string() : " at " + apply_state->restored_at) << '\n';
    return kExitOk;
  }
  // Beside an apply in effect, a tune journal of another drive at the default path (a loop
  // device's kernel name reused) is none of this drive's business: it must not block the apply's.
  const bool tune_journal = given || !applied || tune_journal_of_this_drive(options.device, context);
  if (tune_journal) restore_from_journal(options.journal, options.device, context, err);
  if (!applied) return kExitOk;
  JournalOptions from_apply = options.journal;
  from_apply.path = apply_journal_path(std::nullopt, options.device, context);
  restore_from_journal(from_apply, options.device, context, err);
  return kExitOk;
}

}  // namespace disktune::tuner
