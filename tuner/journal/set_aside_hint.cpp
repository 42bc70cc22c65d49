// SPDX-License-Identifier: GPL-2.0-or-later
// Restore commands for set-aside journals (set_aside_hint.hpp).
#include "tuner/journal/set_aside_hint.hpp"

#include "probe/settings.hpp"
#include "tuner/host/shell_word.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

namespace disktune::tuner {

// The command that restores the settings recorded in a set-aside journal, or why none does.
std::string restore_hint(const std::string& device, const std::string& aside,
                         const probe::Result<results::JournalState>& start, const results::JournalIdentity& now) {
  if (!start) return "its original settings cannot be read (" + start.error().message() + ")";
  if (!results::drive_difference(start->identity, now).empty())
    return "it belongs to another drive: its settings are never applied to this one";
  const bool other_name = !results::identity_difference(start->identity, now).empty();
  std::vector<std::string> restore{"disktune", "restore", path_word(device), "--journal", path_word(aside)};
  if (other_name) restore.push_back("--force");
  return "its original settings (" + probe::format_settings(start->original) + ") stay in it: " +
         quoted_command(restore) + " restores them";
}

// Journals set aside next to `path` (by --fresh or a finished run), with the command that
// restores from the newest; "" when there are none.
std::string set_aside_journals(const std::string& device, const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const std::string prefix = path.substr(slash == std::string::npos ? 0 : slash + 1) + ".";
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) found.push_back(entry.path().string());
  if (found.empty()) return "";
  std::sort(found.begin(), found.end());
  return "; set aside there: " + std::to_string(found.size()) + " journal(s), the newest " + found.back() +
         " (" + quoted_command({"disktune", "restore", path_word(device), "--journal", path_word(found.back())}) + " restores from it)";
}

}  // namespace disktune::tuner
