// SPDX-License-Identifier: GPL-2.0-or-later
// Probe records: write before a probe writes, remove after it; recover a leftover one.
#include "tuner/journal/probe_record.hpp"

#include "probe/core/text.hpp"
#include "probe/device.hpp"
#include "probe/linux/sysfs.hpp"
#include "tuner/journal/restore_recorded.hpp"

#include "probe/linux/device_names.hpp"
#include "tuner/host/clock_text.hpp"
#include "tuner/journal/journal_file.hpp"
#include "tuner/run_error.hpp"
#include "tuner/journal/run_journal.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>


namespace disktune::tuner {

std::optional<std::string> probe_record_path(const std::string& device, const std::string& lock_dir) {
  struct stat st {};
  if (probe::is_sim_spec(device) || ::stat(device.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return std::nullopt;
  struct stat dir {};
  if (::stat(lock_dir.c_str(), &dir) != 0 || !S_ISDIR(dir.st_mode)) return std::nullopt;
  return lock_dir + "/" + probe::dev_number_text(st.st_rdev) + ".probe";
}

namespace {

// The device's disk sequence number (/sys/block/NAME/diskseq, kernel 5.15+; a loop device
// gets a new one on every attach), "" where the kernel has none.
std::string disk_sequence(const std::string& device) {
  const auto text = probe::read_sysfs("/sys/block/" + probe::kernel_name(device) + "/diskseq");
  return text ? *text : "";
}

// Why the record belongs to other media behind the same device number, or "".
std::string other_drive(const results::JournalState& record, const DeviceContext& context) {
  const std::string drive = results::drive_difference(record.identity, journal_identity(context));
  if (!drive.empty()) return drive;
  const auto* seq = record.options.if_contains("diskseq");
  const std::string now = disk_sequence(context.device->held().path);
  if (seq && seq->is_string() && seq->as_string() != now)
    return "diskseq " + std::string(seq->as_string()) + " (record) vs " + now + " (now)";
  return "";
}

}  // namespace

void with_probe_record(const DeviceContext& context, const std::string& lock_dir, const std::function<void()>& probe) {
  const auto path = probe_record_path(context.device->held().path, lock_dir);
  if (!path) return probe();
  {
    JournalFile file(*path);
    file.append(results::start_record(journal_identity(context), current_boot_id(), utc_timestamp(), context.original,
                                      {{"diskseq", disk_sequence(context.device->held().path)}},
                                      context.original_tunables));
  }
  probe();
  ::unlink(path->c_str());
}

bool recover_probe_record(DeviceContext& context, const std::string& lock_dir, std::ostream& log) {
  const auto path = probe_record_path(context.device->held().path, lock_dir);
  if (!path || ::access(path->c_str(), F_OK) != 0) return false;
  const JournalFile file(*path);
  const auto start = results::interpret_start(file.existing_text(), *path);
  const std::string drive = start ? other_drive(*start, context) : "";
  if (!start || !drive.empty()) {
    log << "disktune: removed the probe record " << *path << " ("
        << (start ? "another drive's: " + drive : "torn: the probe had written nothing") << ")\n";
    ::unlink(path->c_str());
    return false;
  }
  restore_recorded(*context.device, *start, "restore the settings recorded in " + *path + " before a probe that was killed");
  log << "disktune: a probe of " << context.device->path() << " was killed before it put back "
      << probe::format_settings(start->original) << ": restored them from " << *path << '\n';
  ::unlink(path->c_str());
  return true;
}

}  // namespace disktune::tuner
