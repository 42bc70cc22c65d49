// SPDX-License-Identifier: GPL-2.0-or-later
// The commands that restore from a set-aside tune journal, for the lines that name one.
#pragma once

#include "probe/core/error.hpp"
#include "results/journal.hpp"

#include <string>

namespace disktune::tuner {

/// What the line naming `aside` (a journal set aside from `device`'s) says of its originals:
/// "its original settings (...) stay in it: 'disktune restore DEV --journal ASIDE' restores them"
/// (with --force when `start` was recorded under another name or kernel than `now`), "it
/// belongs to another drive: ..." or why its start record cannot be read. Errors: none.
std::string restore_hint(const std::string& device, const std::string& aside,
                         const probe::Result<results::JournalState>& start, const results::JournalIdentity& now);

/// "; set aside there: N journal(s), the newest J ('disktune restore DEV --journal J' restores
/// from it)" for the journals set aside next to `path` (named `path` + "." + a suffix, by
/// --fresh or a finished run), "" when there are none. Errors: none (an unreadable directory
/// lists none).
std::string set_aside_journals(const std::string& device, const std::string& path);

}  // namespace disktune::tuner
