// SPDX-License-Identifier: GPL-2.0-or-later
// What changed on a drive since its stopped run put its settings back (changed_since_stop.hpp).
#include "tuner/journal/changed_since_stop.hpp"

#include "tuner/host/shell_word.hpp"
#include "tuner/run_error.hpp"

namespace disktune::tuner {

std::string changed_since(const results::JournalState& recorded, const probe::Settings& now,
                          const probe::SchedulerTunables& now_tunables) {
  std::string text;
  const auto add = [&text](const std::string& name, const std::string& then, const std::string& found) {
    if (then != found) text += (text.empty() ? "" : "; ") + name + " " + then + " (journal) vs " + found + " (now)";
  };
  for (const auto& [id, value] : recorded.original)
    if (const auto it = now.find(id); it != now.end())
      add(std::string(probe::setting_name(id)), probe::format_value(id, value), probe::format_value(id, it->second));
  if (recorded.original_tunables.scheduler != now_tunables.scheduler) return text;
  for (const auto& [file, value] : recorded.original_tunables.values)
    for (const auto& [now_file, now_value] : now_tunables.values)
      if (now_file == file) add(file, value, now_value);
  return text;
}

void refuse_changed_since_stop(const std::string& changed, const std::string& path, const std::string& device) {
  if (changed.empty()) return;
  throw RunError(kExitUsage,
                 "journal " + path + " records its original settings put back (when its run was stopped, or by a "
                 "restore), and the drive's settings changed since (an apply, or a change by hand): " + changed +
                 "; a resume would write the journal's over them and measure from those: " +
                 quoted_command({"disktune", "restore", path_word(device), "--journal", path_word(path)}) +
                 " puts the journal's back first, --fresh starts over from the settings as they are now");
}

}  // namespace disktune::tuner
