// SPDX-License-Identifier: GPL-2.0-or-later
// run_verify: live values against a report's, with the evidence for a drift's cause.
#include "tuner/keep/verify.hpp"

#include "probe/core/text.hpp"
#include "probe/linux/device_names.hpp"
#include "probe/settings.hpp"
#include "probe/watch/kmsg_reader.hpp"
#include "results/pretty_json.hpp"
#include "tuner/keep/apply.hpp"
#include "tuner/keep/drift_cause.hpp"
#include "tuner/keep/drive_match.hpp"
#include "tuner/keep/knob_check.hpp"
#include "tuner/journal/journal_file.hpp"
#include "tuner/host/emulation.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace disktune::tuner {
namespace {

namespace json = boost::json;

struct DriveCheck {
  std::string report;
  std::optional<std::string> device;  // nullopt: absent
  std::string emulated_by;            // the FUSE mount type behind an EMULATED drive, else ""
  std::string detail;                 // absent: what was looked at
  std::vector<KnobCheck> knobs;
  [[nodiscard]] bool ok() const {
    return device && std::all_of(knobs.begin(), knobs.end(), [](const KnobCheck& k) { return k.ok; });
  }
};

// The reports to check: REPORT... as given, or every *.json of --config DIR in name order.
std::vector<std::string> report_files(const VerifyOptions& options) {
  return options.config_dir ? config_reports(*options.config_dir) : options.reports;
}

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

// What the drive's apply journal, udev and the kernel log record about it (drift_cause.hpp).
DriftEvidence drift_evidence(const DeviceContext& context) {
  DriftEvidence evidence;
  evidence.current_boot_id = current_boot_id();
  evidence.udev_event_at = udev_event_time(context.device->path());
  DeviceRequest device;
  device.spec = context.device->path();
  const auto state = apply_journal_state(device, context);
  if (!state) return evidence;
  if (!state->apply.in_effect) evidence.restored_at = state->restored_at;
  evidence.applied_at = state->apply.at;
  evidence.applied_boot_id = state->apply.boot_id;
  if (state->apply.kernel_log && state->apply.boot_id == evidence.current_boot_id)
    add_kernel_log(evidence, *state->apply.kernel_log, context.device->path());
  return evidence;
}

DriveCheck check_drive(const results::SavedReport& report) {
  DriveCheck check;
  check.report = report.file;
  const auto found = find_drive(report, std::nullopt);
  if (!found.path) {
    check.detail = found.why_not;
    return check;
  }
  check.device = found.path;
  check.emulated_by = loop_emulation(*found.path);
  auto context = identified_device(*found.path);
  if (!context) {
    check.device.reset();
    check.detail = context.error().message();
    return check;
  }
  const auto evidence = drift_evidence(*context);
  for (const auto& [id, value] : probe::in_apply_order(report.changes))
    check.knobs.push_back(check_knob(*context->device, id, value, report, evidence));
  return check;
}

void print_text(const std::vector<DriveCheck>& checks, std::ostream& out) {
  for (const auto& c : checks) {
    if (!c.device) {
      out << c.report << ": ABSENT: " << c.detail << '\n';
      continue;
    }
    out << c.report << ": " << *c.device << (c.emulated_by.empty() ? "" : " [EMULATED drive]")
        << (c.ok() ? ": ok" : ": DRIFT") << '\n';
    for (const auto& k : c.knobs) {
      out << "  " << probe::setting_name(k.id) << ": expected " << k.expected << ", actual "
          << (k.actual.empty() ? "unreadable" : k.actual) << (k.ok ? "  ok" : "  DRIFT: " + k.cause) << '\n';
    }
    if (c.knobs.empty()) out << "  nothing to check: the report keeps the baseline\n";
  }
}

json::value to_json(const std::vector<DriveCheck>& checks, bool ok) {
  json::array drives;
  for (const auto& c : checks) {
    json::array knobs;
    for (const auto& k : c.knobs)
      knobs.push_back(json::object{{"setting", probe::setting_name(k.id)}, {"expected", k.expected},
                                   {"actual", k.actual.empty() ? json::value(nullptr) : json::value(k.actual)},
                                   {"status", k.ok ? "ok" : "drift"},
                                   {"detail", k.ok ? json::value(nullptr) : json::value(k.cause)},
                                   {"cause", k.evidence.empty() ? json::value(nullptr) : json::value(k.evidence)}});
    drives.push_back(json::object{{"report", c.report},
                                  {"device", c.device ? json::value(*c.device) : json::value(nullptr)},
                                  {"emulated_by", c.emulated_by.empty() ? json::value(nullptr) : json::value(c.emulated_by)},
                                  {"status", !c.device ? "absent" : c.ok() ? "ok" : "drift"},
                                  {"detail", c.detail.empty() ? json::value(nullptr) : json::value(c.detail)},
                                  {"settings", std::move(knobs)}});
  }
  return json::object{{"status", ok ? "ok" : "drift"}, {"drives", std::move(drives)}};
}

}  // namespace

ExitCode run_verify(const VerifyOptions& options, std::ostream& out, std::ostream&) {
  std::vector<results::SavedReport> reports;  // all read first: bad input checks nothing
  for (const auto& file : report_files(options))
    reports.push_back(read_report(options.config_dir ? "--config" : "REPORT", file));
  std::vector<DriveCheck> checks;
  for (const auto& report : reports) checks.push_back(check_drive(report));
  const bool ok = std::all_of(checks.begin(), checks.end(), [](const DriveCheck& c) { return c.ok(); });
  if (options.json)
    out << results::pretty_json(to_json(checks, ok));
  else
    print_text(checks, out);
  return ok ? kExitOk : kExitDrift;
}

}  // namespace disktune::tuner
