// SPDX-License-Identifier: GPL-2.0-or-later
// A stopped run's journal whose drive changed since the stop: not resumed over the change.
#pragma once

#include "probe/device.hpp"
#include "results/journal.hpp"

#include <string>

namespace disktune::tuner {

/// The settings and scheduler tunables of `recorded` (a journal's originals) that `now` (the
/// drive's as it was opened) holds at another value: "read_ahead_kb 8 (journal) vs 512 (now)",
/// "; "-separated; the tunables only when both name the same scheduler. "" when none differ.
/// Errors: none.
std::string changed_since(const results::JournalState& recorded, const probe::Settings& now,
                          const probe::SchedulerTunables& now_tunables);

/// Refuse (RunError, exit 2) to resume the journal at `path` (of `device`, as named in the
/// printed restore command) whose originals were put back (JournalState::settings_back,
/// unfinished: a signal stop's or a restore's record) when `changed` (changed_since of its
/// originals and the drive as opened) is not empty: an apply or a hand changed them since, and a
/// resume would write the journal's over that and measure from them. The message names each
/// difference and both ways on: restore (the journal's back first) or --fresh (start from what
/// is there now). Returns when `changed` is empty.
void refuse_changed_since_stop(const std::string& changed, const std::string& path, const std::string& device);

}  // namespace disktune::tuner
