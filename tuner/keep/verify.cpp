// SPDX-License-Identifier: GPL-2.0-or-later
// run_verify: live values against a report's, with the evidence for a drift's cause.
#include "tuner/keep/verify.hpp"

#include "probe/settings.hpp"
#include "results/pretty_json.hpp"
#include "tuner/keep/apply.hpp"
#include "tuner/keep/drift_evidence.hpp"
#include "tuner/keep/drive_match.hpp"
#include "tuner/keep/knob_check.hpp"
#include "tuner/host/emulation.hpp"

#include <boost/json.hpp>

#include <algorithm>

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

// A *.json of --config DIR that was not read, and read_report's reason.
struct Unread {
  std::string file, detail;
};

// The reports to check, all read before any drive is checked. REPORT... as given: the first
// that cannot be read throws (exit 2, nothing checked). --config DIR, every *.json entry in
// name order: one that cannot be read (no regular file, a dangling link, not a report) is
// named in `unread` and the others are checked, so a monitoring check never covers fewer
// drives than DIR holds reports without saying so.
std::vector<results::SavedReport> read_reports(const VerifyOptions& options, std::vector<Unread>& unread) {
  std::vector<results::SavedReport> reports;
  if (!options.config_dir) {
    for (const auto& file : options.reports) reports.push_back(read_report("REPORT", file));
    return reports;
  }
  for (const auto& file : config_reports(*options.config_dir)) {
    try {
      reports.push_back(read_report("--config", file));
    } catch (const RunError& e) {
      unread.push_back({file, e.what()});
    }
  }
  return reports;
}

DriveCheck check_drive(const results::SavedReport& report, const std::optional<std::string>& journal) {
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
  const auto evidence = drift_evidence(*context, journal);
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

json::value to_json(const std::vector<DriveCheck>& checks, const std::vector<Unread>& unread) {
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
  json::array unread_json;
  for (const auto& u : unread) unread_json.push_back(json::object{{"report", u.file}, {"detail", u.detail}});
  const bool drift = !std::all_of(checks.begin(), checks.end(), [](const DriveCheck& c) { return c.ok(); });
  return json::object{{"status", drift ? "drift" : unread.empty() ? "ok" : "unread"},
                      {"drives", std::move(drives)},
                      {"unread", std::move(unread_json)}};
}

}  // namespace

ExitCode run_verify(const VerifyOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<Unread> unread;
  const auto reports = read_reports(options, unread);
  for (const auto& u : unread) err << "disktune: " << u.detail << ": not checked\n";
  std::vector<DriveCheck> checks;
  for (const auto& report : reports) checks.push_back(check_drive(report, options.journal_path));
  const bool ok = std::all_of(checks.begin(), checks.end(), [](const DriveCheck& c) { return c.ok(); });
  if (options.json)
    out << results::pretty_json(to_json(checks, unread));
  else
    print_text(checks, out);
  if (!unread.empty()) return kExitUsage;
  return ok ? kExitOk : kExitDrift;
}

}  // namespace disktune::tuner
