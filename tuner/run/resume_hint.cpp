// SPDX-License-Identifier: GPL-2.0-or-later
// How a person goes on from a tune a signal stopped: the command that resumes it.
#include "tuner/run/resume_hint.hpp"

#include "tuner/host/signals.hpp"

namespace disktune::tuner {
namespace {

// `command_line` as a command a person can paste: without --fresh (that would set the journal
// aside), each argument quoted when the shell would split or expand it.
std::string resume_command(const TuneOptions& tune) {
  if (tune.command_line.size() < 2) return "disktune tune " + tune.device.spec;
  std::string command = "disktune";
  for (std::size_t i = 1; i < tune.command_line.size(); ++i) {
    const std::string& arg = tune.command_line[i];
    if (arg == "--fresh") continue;
    const bool plain = !arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789-_=./:,+@%") == std::string::npos;
    std::string quoted = "'";
    for (const char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    command += " " + (plain ? arg : quoted + "'");
  }
  return command;
}

}  // namespace

// A run a signal stopped leaves its journal unfinished (finish_run): how to go on from it.
void hint_resume(TuneOutcome& outcome, const TuneOptions& tune, const RunJournal& journal, bool journal_failed) {
  if (!stop_requested() || outcome.exit_code != kExitPartial || journal_failed) return;
  const std::string command = resume_command(tune);
  outcome.resume_hint = "disktune: journal " + journal.path() + " kept: the next '" + command +
                        "' resumes this run (its measured trials and bounds kept), '" + command +
                        " --fresh' starts over\n";
}

}  // namespace disktune::tuner
