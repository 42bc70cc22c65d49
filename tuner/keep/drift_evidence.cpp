// SPDX-License-Identifier: GPL-2.0-or-later
// drift_evidence: the lock file, the apply journal, udev's database and the kernel log, read.
#include "tuner/keep/drift_evidence.hpp"

#include "probe/core/text.hpp"
#include "probe/linux/device_names.hpp"
#include "probe/watch/kmsg_reader.hpp"
#include "tuner/host/device_lock.hpp"
#include "tuner/host/input_file.hpp"
#include "tuner/journal/journal_file.hpp"
#include "tuner/journal/pending_restore.hpp"
#include "tuner/journal/run_journal.hpp"
#include "tuner/keep/apply.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace disktune::tuner {
namespace {

// The udev database entry's mtime of `device` (/run/udev/data/bMAJ:MIN, rewritten each time
// udev handles an event for it); nullopt without udev or an entry.
std::optional<std::time_t> udev_event_time(const std::string& device) {
  struct stat node {};
  if (::stat(device.c_str(), &node) != 0 || !S_ISBLK(node.st_mode)) return std::nullopt;
  const std::string entry = "/run/udev/data/b" + probe::dev_number_text(node.st_rdev);
  struct stat data {};
  if (::stat(entry.c_str(), &data) != 0) return std::nullopt;
  return data.st_mtime;
}

// The kernel log's records after the apply's mark (same boot only: sequence numbers start
// again at each boot) that show a resume or a reset of the device's port.
void add_kernel_log(DriftEvidence& evidence, const results::KernelLogMark& mark, const std::string& device) {
  const auto records = probe::read_kmsg_log(mark.seq);
  if (!records) return;
  evidence.applied_usec = mark.monotonic_usec;
  evidence.kernel_log_lost = !records->empty() && records->front().seq > mark.seq + 1;  // seq is gapless in a boot
  evidence.resume = probe::first_resume(*records);
  evidence.reset = probe::first_reset(*records, probe::device_ports(probe::kernel_name(device)));
}

// The text of the journal at `path`, or why there is none to read: stat first, so a FIFO or
// a device planted there is named and never opened.
std::optional<std::string> journal_text(const std::string& path, std::string& why_not) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    why_not = errno == ENOENT ? "no apply journal at " + path : path + " cannot be read: " + std::strerror(errno);
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode)) {
    why_not = path + " cannot be read: not a regular file";
    return std::nullopt;
  }
  auto text = read_whole_file(path);
  if (!text) why_not = path + " cannot be read";
  return text;
}

}  // namespace

std::optional<results::JournalState> read_apply_evidence(DriftEvidence& evidence, const std::string& path,
                                                         const results::JournalIdentity& identity) {
  evidence.apply_journal = path;
  const auto text = journal_text(path, evidence.no_apply);
  if (!text) return std::nullopt;
  const auto state = results::read_journal(*text, path);
  if (!state) {
    evidence.no_apply = "the apply journal " + path + " is damaged: " + state.error().input_message();
    return std::nullopt;
  }
  if (state->kind != results::JournalKind::apply) {
    evidence.no_apply = path + " is a tune's journal, not an apply journal";
    return std::nullopt;
  }
  if (const auto other = results::drive_difference(state->identity, identity); !other.empty()) {
    evidence.no_apply = "the apply journal " + path + " is another drive's (" + other + ")";
    return std::nullopt;
  }
  if (!state->apply.in_effect) evidence.restored_at = state->restored_at;  // also after an apply that never completed
  if (state->apply.at.empty()) {
    evidence.no_apply = "the apply journal " + path + " records no completed apply";
    return *state;
  }
  evidence.applied_at = state->apply.at;
  evidence.applied_boot_id = state->apply.boot_id;
  return *state;
}

DriftEvidence drift_evidence(const DeviceContext& context, const std::optional<std::string>& journal) {
  DriftEvidence evidence;
  const std::string device = context.device->path();
  evidence.lock_holder = device_lock_holder(device);
  evidence.current_boot_id = current_boot_id();
  evidence.udev_event_at = udev_event_time(device);
  // "; the tune journaled in J did not end (killed?): ..." for each journal that owes a restore.
  if (const auto owed = pending_restore_note(device, std::nullopt); !owed.empty()) evidence.unrestored_tune = owed.substr(2);
  DeviceRequest request;
  request.spec = device;
  const auto path = apply_journal_path(journal, request, context);
  const auto state = read_apply_evidence(evidence, path, journal_identity(context));
  if (state && !evidence.applied_at.empty() && state->apply.kernel_log &&
      state->apply.boot_id == evidence.current_boot_id)
    add_kernel_log(evidence, *state->apply.kernel_log, device);
  return evidence;
}

}  // namespace disktune::tuner
