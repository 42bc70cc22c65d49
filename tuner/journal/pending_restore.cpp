// SPDX-License-Identifier: GPL-2.0-or-later
// The restore a killed tune still owes (pending_restore.hpp).
#include "tuner/journal/pending_restore.hpp"

#include "tuner/host/shell_word.hpp"

#include "results/journal.hpp"
#include "tuner/host/input_file.hpp"
#include "tuner/journal/journal_file.hpp"

#include <filesystem>
#include <vector>

namespace disktune::tuner {
namespace {

namespace fs = std::filesystem;

std::string canonical_or_same(const std::string& path) {
  std::error_code ec;
  const auto canonical = fs::canonical(path, ec);
  return ec ? path : canonical.string();
}

// The journals to look at: the one named, else the default directory's.
std::vector<std::string> candidates(const std::optional<std::string>& journal) {
  if (journal) return {*journal};
  std::vector<std::string> found;
  std::error_code ec;
  const auto dir = fs::path(default_journal_path("x")).parent_path();
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".journal" && entry.is_regular_file(ec)) found.push_back(entry.path().string());
  return found;
}

// How the tune journaled in `path` (of `device`) left the disk when it owes a restore, i.e. no
// restore followed its last trial begun (a restore, then a resume killed in a trial, owes one
// again; so does a run whose own restore failed): "did not end (killed?)" or "ended without
// restoring its settings"; "" when it owes none or is no tune journal of `device`.
std::string owed_restore(const std::string& path, const std::string& device) {
  const auto text = read_whole_file(path);  // never blocks on a FIFO planted in the directory
  if (!text) return "";
  const auto start = results::interpret_start(*text, path);
  if (!start || start->kind != results::JournalKind::tune || canonical_or_same(start->identity.path) != device) return "";
  // Records after the start that cannot be read (a tail torn by the kill) leave it owing.
  const auto state = results::read_journal(*text, path);
  if (state && state->settings_back) return "";
  return state && state->finished ? "ended without restoring its settings" : "did not end (killed?)";
}

}  // namespace

std::string pending_restore_note(const std::string& device, const std::optional<std::string>& journal) {
  const std::string named = canonical_or_same(device);
  std::string note;
  for (const auto& path : candidates(journal))
    if (const auto owed = owed_restore(path, named); !owed.empty())
      note += "; the tune journaled in " + path + " " + owed + ": the disk may still hold a trial's settings; " +
              quoted_command({"disktune", "restore", path_word(device), "--journal", path_word(path)}) +
              " puts back the settings from before it (a mounted disk too)";
  return note;
}

}  // namespace disktune::tuner
