// SPDX-License-Identifier: GPL-2.0-or-later
// How a person goes on from a tune a signal stopped: the command that resumes it.
#include "tuner/run/resume_hint.hpp"

#include "tuner/host/signals.hpp"

namespace disktune::tuner {
namespace {

// `arg` as the shell reads it back: as is when it would not split or expand it, else quoted.
std::string shell_word(const std::string& arg) {
  const bool plain = !arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                           "0123456789-_=./:,+@%") == std::string::npos;
  if (plain) return arg;
  std::string quoted = "'";
  for (const char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// `command_line` as a command a person can paste: the program as it was run (build/disktune
// is not `disktune` outside PATH), without --fresh (that would set the journal aside).
std::string resume_command(const TuneOptions& tune) {
  if (tune.command_line.size() < 2) return "disktune tune " + shell_word(tune.device.spec);
  std::string command = shell_word(tune.command_line.front());
  for (std::size_t i = 1; i < tune.command_line.size(); ++i)
    if (tune.command_line[i] != "--fresh") command += " " + shell_word(tune.command_line[i]);
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
