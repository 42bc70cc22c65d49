// SPDX-License-Identifier: GPL-2.0-or-later
// How a person goes on from a tune a signal stopped: the command that resumes it.
#pragma once

#include "tuner/journal/run_journal.hpp"
#include "tuner/run/session.hpp"

namespace disktune::tuner {

/// When a stop request (a signal) ended the run with exit 1 and its journal was kept
/// (`journal_failed` false), set outcome.resume_hint to the line that says so: "disktune:
/// journal J kept: the next 'COMMAND' resumes this run (its measured trials and bounds kept),
/// 'COMMAND --fresh' starts over", COMMAND being tune.command_line without --fresh, each
/// argument quoted where a shell would split or expand it. Otherwise leaves it empty.
void hint_resume(TuneOutcome& outcome, const TuneOptions& tune, const RunJournal& journal, bool journal_failed);

}  // namespace disktune::tuner
