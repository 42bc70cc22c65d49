// SPDX-License-Identifier: GPL-2.0-or-later
// drift_evidence: what `verify` reads about a drive before it names a drift's cause.
#pragma once

#include "results/journal.hpp"
#include "tuner/device_context.hpp"
#include "tuner/keep/drift_cause.hpp"

#include <optional>
#include <string>

namespace disktune::tuner {

/// Fill `evidence`'s apply fields from the apply journal at `path`: apply_journal; when it is a
/// readable apply journal of the drive `identity`, restored_at (a restore record after its last
/// apply) and, for a completed apply, applied_at and applied_boot_id; else set no_apply to
/// what was found there: "no apply journal at P", "P cannot be read: why" (not a regular file,
/// an I/O error: never opened when it is no regular file, so a FIFO cannot block), "the apply
/// journal P is damaged: why", "P is a tune's journal, not an apply journal", "the apply journal
/// P is another drive's (difference)", "the apply journal P records no completed apply".
/// Returns the state read when it is this drive's apply journal (its kernel-log mark is the
/// caller's), else nullopt. Reads only.
std::optional<results::JournalState> read_apply_evidence(DriftEvidence& evidence, const std::string& path,
                                                         const results::JournalIdentity& identity);

/// What the records show about `context`'s device (drift_cause.hpp): the holder of its device
/// lock (device_lock_holder), its apply journal (`journal`: --journal FILE, else the drive's
/// default, apply_journal_path; read_apply_evidence), udev's database entry and, in the apply's
/// boot, the kernel log since the apply. Reads only; no lock.
DriftEvidence drift_evidence(const DeviceContext& context, const std::optional<std::string>& journal);

}  // namespace disktune::tuner
