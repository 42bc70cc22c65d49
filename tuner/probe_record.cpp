// SPDX-License-Identifier: GPL-2.0-or-later
// Probe records: write before a probe writes, remove after it; recover a leftover one.
#include "tuner/probe_record.hpp"

#include "tuner/clock_text.hpp"
#include "tuner/journal_file.hpp"
#include "tuner/run_error.hpp"
#include "tuner/run_journal.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace disktune::tuner {

std::optional<std::string> probe_record_path(const std::string& device, const std::string& lock_dir) {
  struct stat st {};
  if (device.rfind("sim:", 0) == 0 || ::stat(device.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return std::nullopt;
  struct stat dir {};
  if (::stat(lock_dir.c_str(), &dir) != 0 || !S_ISDIR(dir.st_mode)) return std::nullopt;
  return lock_dir + "/" + std::to_string(major(st.st_rdev)) + ":" + std::to_string(minor(st.st_rdev)) + ".probe";
}

void with_probe_record(const DeviceContext& context, const std::string& lock_dir, const std::function<void()>& probe) {
  const auto path = probe_record_path(context.device->path(), lock_dir);
  if (!path) return probe();
  {
    JournalFile file(*path);
    file.append(results::start_record(journal_identity(context), current_boot_id(), utc_timestamp(), context.original,
                                      {}, context.original_tunables));
  }
  probe();
  ::unlink(path->c_str());
}

bool recover_probe_record(DeviceContext& context, const std::string& lock_dir, std::ostream& log) {
  const auto path = probe_record_path(context.device->path(), lock_dir);
  if (!path || ::access(path->c_str(), F_OK) != 0) return false;
  const JournalFile file(*path);
  const auto start = results::interpret_start(file.existing_text(), *path);
  const std::string drive = start ? results::drive_difference(start->identity, journal_identity(context)) : "";
  if (!start || !drive.empty()) {
    log << "disktune: removed the probe record " << *path << " ("
        << (start ? "another drive's: " + drive : "torn: the probe had written nothing") << ")\n";
    ::unlink(path->c_str());
    return false;
  }
  context.device->keep_tunables(start->original_tunables);
  if (auto restored = context.device->restore(start->original); !restored)
    throw RunError(kExitRestoreFailed, "restore the settings recorded in " + *path + " before a probe that was killed: " +
                                           restored.error().message());
  log << "disktune: a probe of " << context.device->path() << " was killed before it put back "
      << probe::format_settings(start->original) << ": restored them from " << *path << '\n';
  ::unlink(path->c_str());
  return true;
}

}  // namespace disktune::tuner
