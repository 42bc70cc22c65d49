// SPDX-License-Identifier: GPL-2.0-or-later
// How a person goes on from a tune a signal stopped: the command that resumes it.
#include "tuner/run/resume_hint.hpp"

#include "tuner/host/shell_word.hpp"
#include "tuner/host/signals.hpp"

namespace disktune::tuner {
namespace {

// `command_line` as the words of a command a person can paste: the program as it was run
// (build/disktune is not `disktune` outside PATH), without --fresh (that would set the journal
// aside); with `fresh`, --fresh right after the command word (after a "--" it names a device).
std::vector<std::string> resume_words(const std::vector<std::string>& command_line, const std::string& device_spec,
                                      bool fresh) {
  std::vector<std::string> words{"disktune", "tune", device_spec};
  if (command_line.size() >= 2) {
    words.assign(command_line.begin(), command_line.begin() + 2);
    for (std::size_t i = 2; i < command_line.size(); ++i)
      if (command_line[i] != "--fresh") words.push_back(command_line[i]);
  }
  if (fresh) words.insert(words.begin() + 2, "--fresh");
  return words;
}

}  // namespace

std::string resume_hint_text(const std::vector<std::string>& command_line, const std::string& device_spec,
                             const std::string& journal_path) {
  const std::string resume = shell_command(resume_words(command_line, device_spec, false));
  const std::string fresh = shell_command(resume_words(command_line, device_spec, true));
  const std::string kept = "disktune: journal " + journal_path + " kept";
  if (resume.find('\'') == std::string::npos)
    return kept + ": the next '" + resume + "' resumes this run (its measured trials and bounds kept), '" + fresh +
           "' starts over\n";
  // Quoted words inside '...' read as other quotes when the whole is copied: set the command apart.
  return kept + "; to resume this run (its measured trials and bounds kept): " + resume +
         "\ndisktune: to start over: " + fresh + "\n";
}

// A run a signal stopped leaves its journal unfinished (finish_run): how to go on from it.
void hint_resume(TuneOutcome& outcome, const TuneOptions& tune, const RunJournal& journal, bool journal_failed) {
  if (!stop_requested() || outcome.exit_code != kExitPartial || journal_failed) return;
  outcome.resume_hint = resume_hint_text(tune.command_line, tune.device.spec, journal.path());
}

}  // namespace disktune::tuner
