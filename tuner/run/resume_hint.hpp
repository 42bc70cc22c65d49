// SPDX-License-Identifier: GPL-2.0-or-later
// How a person goes on from a tune a signal stopped: the command that resumes it.
#pragma once

#include "tuner/journal/run_journal.hpp"
#include "tuner/run/session.hpp"

#include <string>
#include <vector>

namespace disktune::tuner {

/// The lines that say how to go on from a stopped tune whose journal `journal_path` was kept:
/// "disktune: journal J kept: the next 'COMMAND' resumes this run (its measured trials and
/// bounds kept), 'FRESH' starts over\n", COMMAND being `command_line` (argv, the program as it
/// was run; "disktune tune DEVICE" from `device_spec` when argv is missing) without --fresh,
/// FRESH the same with --fresh right after the command word ("disktune tune --fresh ...": after
/// a "--" it would name a device), each through shell_command. When COMMAND holds a quote, it is
/// set apart instead, so that what a person copies is the command: "disktune: journal J kept;
/// to resume this run (...): COMMAND\ndisktune: to start over: FRESH\n". Errors: none.
std::string resume_hint_text(const std::vector<std::string>& command_line, const std::string& device_spec,
                             const std::string& journal_path);

/// When a stop request (a signal) ended the run with exit 1 and its journal was kept
/// (`journal_failed` false), set outcome.resume_hint to resume_hint_text for tune's command
/// line. Otherwise leaves it empty.
void hint_resume(TuneOutcome& outcome, const TuneOptions& tune, const RunJournal& journal, bool journal_failed);

}  // namespace disktune::tuner
