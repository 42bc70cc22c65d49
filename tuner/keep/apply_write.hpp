// SPDX-License-Identifier: GPL-2.0-or-later
// apply's write of a report's settings, and the values found put back when it fails.
#pragma once

#include "probe/settings.hpp"
#include "results/journal.hpp"
#include "tuner/journal/journal_file.hpp"
#include "tuner/trial/settings_writer.hpp"

#include <optional>
#include <string>

namespace disktune::tuner {

/// The apply journal as this apply found it: the values `restore` goes back to (from before
/// the first apply in effect) and that earlier apply's report, when one is in effect.
struct OpenedApplyJournal {
  probe::Settings before;
  std::optional<std::string> in_effect_report;  ///< nullopt: no apply in effect
};

/// Where the kernel log stands now (its last sequence number from /dev/kmsg and
/// CLOCK_MONOTONIC [µs]), for verify to find a resume or reset after the apply; nullopt
/// without /dev/kmsg.
std::optional<results::KernelLogMark> kernel_log_mark();

/// Write `target` to the device through `restorer` (SettingsWriter::write: in apply order, each
/// value read back). On failure put `found` back (SettingsWriter::restore, read back too) and record
/// that in `journal` for what it is: with no apply in effect a restore record; with one in
/// effect (`opened.in_effect_report`) an apply record of `found`, which is that apply's
/// configuration and stays in effect (a restore record would end it, and 'disktune restore'
/// could no longer reach the values from before it). `what` names the apply in messages.
/// Throws RunError: 3 (kExitDevice) when the write failed and `found` was put back, 4
/// (kExitRestoreFailed) when `found` could not be put back either (naming the journal to
/// restore from).
void write_or_put_back(const SettingsWriter& restorer, JournalFile& journal, const probe::Settings& target,
                       const probe::Settings& found, const OpenedApplyJournal& opened, const std::string& what);

}  // namespace disktune::tuner
