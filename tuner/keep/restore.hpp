// SPDX-License-Identifier: GPL-2.0-or-later
// `disktune restore`: a stopped tune's originals and an apply's values-before put back.
#pragma once

#include "tuner/device_context.hpp"
#include "tuner/journal/run_journal.hpp"
#include "tuner/run_error.hpp"

#include <ostream>

namespace disktune::tuner {

/// restore's options: the device, and --journal (restore from that journal only) and --force.
struct RestoreOptions {
  DeviceRequest device;    ///< DEVICE, --seed, --sim-profile
  JournalOptions journal;  ///< --journal FILE, --force (--fresh is not restore's)
};

/// `disktune restore DEVICE` (README "Journal"), under the device lock and without the
/// capability probe (it writes trial values): first the tune journal's recorded originals
/// (restore_from_journal: a tune may have stopped in a trial's settings), then, while an
/// apply is in effect (its apply journal, keep/apply.hpp), the apply journal's values from
/// before its first change; each is read back. With --journal FILE only that journal. An
/// apply journal whose apply was undone already and no tune journal of this drive: nothing
/// to put back, said on `err`, exit 0. Throws RunError as restore_from_journal (2: no
/// journal, an unreadable start record, another drive; 4: a setting not restored).
ExitCode run_restore(const RestoreOptions& options, std::ostream& err);

}  // namespace disktune::tuner
