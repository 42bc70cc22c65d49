// SPDX-License-Identifier: GPL-2.0-or-later
// The restore a killed tune still owes: named where a disk is refused, so that an operator who
// mounted it meanwhile learns that it still holds a trial's settings and how to put them back.
#pragma once

#include <optional>
#include <string>

namespace disktune::tuner {

/// What a refusal of `device` (a device path as the user named it; compared canonicalised with
/// the start record's device path) adds when a tune of it did not end: for `journal` (--journal
/// FILE) or, without one, each *.journal in the default journal directory (default_journal_path)
/// that is a tune journal of `device` owing a restore (results::JournalState::settings_back
/// false: no restore record, nor an end record saying restored, since its last trial began),
/// "; the tune journaled in J did not end (killed?)" (or "ended without restoring its settings"
/// when its end record says its restore failed) ": the disk may still hold a trial's settings;
/// 'PROGRAM restore DEV --journal J' puts back the settings from before it (a mounted disk
/// too)", PROGRAM as run (shell_command). "" when there is none. Unreadable or foreign journals are passed over: this only
/// adds to a refusal, and a refusal must still come.
std::string pending_restore_note(const std::string& device, const std::optional<std::string>& journal);

}  // namespace disktune::tuner
