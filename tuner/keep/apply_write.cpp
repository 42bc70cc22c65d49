// SPDX-License-Identifier: GPL-2.0-or-later
// apply's write of a report's settings, and the values found put back when it fails.
#include "tuner/keep/apply_write.hpp"

#include "tuner/host/shell_word.hpp"

#include "probe/watch/kmsg_reader.hpp"
#include "tuner/host/clock_text.hpp"
#include "tuner/run_error.hpp"

#include <ctime>

namespace disktune::tuner {

std::optional<results::KernelLogMark> kernel_log_mark() {
  const auto seq = probe::last_kmsg_seq();
  if (!seq) return std::nullopt;
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return results::KernelLogMark{*seq, static_cast<std::uint64_t>(now.tv_sec) * 1000000u +
                                          static_cast<std::uint64_t>(now.tv_nsec / 1000)};
}

void write_or_put_back(const SettingsWriter& restorer, JournalFile& journal, const probe::Settings& target,
                       const probe::Settings& found, const OpenedApplyJournal& opened, const std::string& what) {
  const auto applied = restorer.write(target, "apply the report's settings");
  if (applied.done) return;
  const std::string why = applied.why;
  if (const auto back = restorer.restore(found); !back.done)
    throw RunError(kExitRestoreFailed, what + " failed (" + why + ") and the values found could not be put back: " +
                                           back.done.error().message() + "; run " +
                                           quoted_command({"disktune", "restore", "--journal", path_word(journal.path())}));
  if (opened.in_effect_report)
    journal.append(results::apply_record(found, true, *opened.in_effect_report, utc_timestamp(), current_boot_id(),
                                         kernel_log_mark()));
  else
    journal.append(results::restore_record(utc_timestamp(), current_boot_id()));
  throw RunError(kExitDevice, what + " failed: " + why + "; the values found were put back and read back" +
                                  (opened.in_effect_report ? " (the apply of " + *opened.in_effect_report +
                                                                 " stays in effect)"
                                                           : std::string()));
}

}  // namespace disktune::tuner
