// SPDX-License-Identifier: GPL-2.0-or-later
// How a person goes on from a tune a signal stopped: the command that resumes it.
#include "tuner/run/resume_hint.hpp"

#include "tuner/host/shell_word.hpp"
#include "tuner/host/signals.hpp"

namespace disktune::tuner {
namespace {

// `command_line` as a command a person can paste: the program as it was run (build/disktune
// is not `disktune` outside PATH), without --fresh (that would set the journal aside).
std::string resume_command(const std::vector<std::string>& command_line, const std::string& device_spec) {
  if (command_line.size() < 2) return "disktune tune " + shell_word(device_spec);
  std::string command = shell_word(command_line.front());
  for (std::size_t i = 1; i < command_line.size(); ++i)
    if (command_line[i] != "--fresh") command += " " + shell_word(command_line[i]);
  return command;
}

}  // namespace

std::string resume_hint_text(const std::vector<std::string>& command_line, const std::string& device_spec,
                             const std::string& journal_path) {
  const std::string command = resume_command(command_line, device_spec);
  const std::string kept = "disktune: journal " + journal_path + " kept";
  if (command.find('\'') == std::string::npos)
    return kept + ": the next '" + command + "' resumes this run (its measured trials and bounds kept), '" + command +
           " --fresh' starts over\n";
  // Quoted words inside '...' read as other quotes when the whole is copied: set the command apart.
  return kept + "; to resume this run (its measured trials and bounds kept): " + command +
         "\ndisktune: to start over: " + command + " --fresh\n";
}

// A run a signal stopped leaves its journal unfinished (finish_run): how to go on from it.
void hint_resume(TuneOutcome& outcome, const TuneOptions& tune, const RunJournal& journal, bool journal_failed) {
  if (!stop_requested() || outcome.exit_code != kExitPartial || journal_failed) return;
  outcome.resume_hint = resume_hint_text(tune.command_line, tune.device.spec, journal.path());
}

}  // namespace disktune::tuner
