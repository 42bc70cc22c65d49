// SPDX-License-Identifier: GPL-2.0-or-later
// The machine summary: each drive's outcome and its report's winner, as JSON and as a table.
#include "tuner/fleet/multi_summary.hpp"

#include "probe/device.hpp"
#include "tuner/host/emulation.hpp"
#include "tuner/host/input_file.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <array>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace disktune::tuner {
namespace {

namespace json = boost::json;

// The winner part of a drive's report; null when it has no answer: not run, failed early, or
// a run that did not complete or was too noisy (its winner is no answer: "baseline, 1.000"
// read like one for an interrupted drive).
json::value report_winner(const std::string& path) {
  const auto text = read_whole_file(path);
  if (!text) return nullptr;
  boost::system::error_code ec;
  auto report = json::parse(*text, ec);
  if (ec || !report.is_object()) return nullptr;
  const auto* completed = report.as_object().if_contains("completed");
  const auto* too_noisy = report.as_object().if_contains("too_noisy");
  if (!completed || !completed->is_bool() || !completed->as_bool() ||
      (too_noisy && too_noisy->is_bool() && too_noisy->as_bool()))
    return nullptr;
  const auto* winner = report.as_object().if_contains("winner");
  if (!winner || !winner->is_object()) return nullptr;
  json::object picked;
  for (const char* key : {"changes", "keep_baseline", "speedup"})
    if (const auto* value = winner->as_object().if_contains(key)) picked[key] = *value;
  return picked;
}

// sim: and sim:FILE: everything produced from a simulated drive says so.
bool simulated(const DriveRun& run) { return probe::is_sim_spec(run.device); }

// A loop device over a FUSE file: EMULATED (tuner/device/open_device.hpp emulation_of).
std::string emulated_by(const DriveRun& run) {
  return simulated(run) ? std::string() : loop_emulation(run.device);
}

json::object drive_json(const DriveRun& run) {
  const auto emulation = emulated_by(run);
  return {{"device", run.device}, {"key", run.key},         {"simulated", simulated(run)},
          {"emulated_by", emulation.empty() ? json::value(nullptr) : json::value(emulation)}, {"group", run.group + 1},
          {"exit_code", run.exit_code}, {"outcome", run.outcome}, {"report", run.report_path},
          {"log", run.log_path},  {"start_s", run.start_s},     {"end_s", run.end_s},
          {"winner", report_winner(run.report_path)}};
}

int severity(int code) {
  constexpr std::array<int, 7> order{kExitOk, kExitTooNoisy, kExitPartial, kExitUsage, kExitDevice, kExitWedged,
                                     kExitRestoreFailed};
  for (std::size_t i = 0; i < order.size(); ++i)
    if (order[i] == code) return static_cast<int>(i);
  return 4;  // as a device error
}

std::string winner_text(const json::value& winner) {
  if (!winner.is_object()) return "-";
  const auto& w = winner.as_object();
  if (const auto* keep = w.if_contains("keep_baseline"); keep && keep->is_bool() && keep->as_bool()) return "baseline";
  std::string text;
  if (const auto* changes = w.if_contains("changes"); changes && changes->is_object())
    for (const auto& [name, value] : changes->as_object())
      text += (text.empty() ? "" : ",") + std::string(name) + "=" +
              (value.is_string() ? std::string(value.as_string()) : json::serialize(value));
  return text.empty() ? "baseline" : text;
}

std::string speedup_text(const json::value& winner) {
  if (!winner.is_object()) return "-";
  const auto* speedup = winner.as_object().if_contains("speedup");
  if (!speedup || !speedup->is_number()) return "-";
  std::ostringstream text;
  text << std::fixed << std::setprecision(2) << speedup->to_number<double>() << 'x';  // as the winner line: 3.83x
  return text.str();
}

}  // namespace

ExitCode machine_exit_code(const std::vector<DriveRun>& runs) {
  int worst = kExitOk;
  for (const auto& run : runs)
    if (severity(run.exit_code) > severity(worst)) worst = run.exit_code;
  return static_cast<ExitCode>(severity(worst) == 4 ? kExitDevice : worst);
}

boost::json::object summary_json(const MachineRun& machine) {
  json::array drives, groups, skipped;
  for (const auto& run : machine.runs) drives.push_back(drive_json(run));
  for (const auto& group : machine.groups) {
    json::array names, reasons;
    for (const auto& drive : group.drives) names.push_back(json::string(drive));
    for (const auto& reason : group.reasons) reasons.push_back(json::string(reason));
    groups.push_back(json::object{{"drives", names}, {"reasons", reasons}});
  }
  for (const auto& why : machine.skipped) skipped.push_back(json::string(why));
  return {{"schema_version", 1},          {"started_at", machine.started_at},
          {"finished_at", machine.finished_at}, {"exit_code", static_cast<int>(machine_exit_code(machine.runs))},
          {"drives", drives},             {"groups", groups},
          {"skipped", skipped}};
}

std::string summary_table(const MachineRun& machine) {
  std::ostringstream table;
  int width = 6;
  for (const auto& run : machine.runs) width = std::max(width, static_cast<int>(run.key.size()) + 2);
  table << std::left << std::setw(width) << "drive" << std::setw(6) << "group" << std::setw(5) << "exit" << std::setw(28)
        << "winner" << std::setw(9) << "speedup" << "outcome; report\n";
  for (const auto& run : machine.runs) {
    const auto winner = report_winner(run.report_path);
    table << std::setw(width) << run.key << std::setw(6) << run.group + 1 << std::setw(5) << run.exit_code
          << std::setw(28) << winner_text(winner) << std::setw(9) << speedup_text(winner) << run.outcome << "; "
          << run.report_path << '\n';
  }
  for (std::size_t g = 0; g < machine.groups.size(); ++g)
    for (const auto& reason : machine.groups[g].reasons) table << "group " << g + 1 << " one after another: " << reason << '\n';
  for (const auto& why : machine.skipped) table << "skipped " << why << '\n';
  std::string sims, emulated;
  for (const auto& run : machine.runs) {
    if (simulated(run)) sims += (sims.empty() ? "" : ", ") + run.key;
    if (const auto by = emulated_by(run); !by.empty()) emulated += (emulated.empty() ? "" : ", ") + run.key + " (" + by + ")";
  }
  if (!sims.empty()) table << "SIMULATED drives (figures from the simulator, no hardware): " << sims << '\n';
  if (!emulated.empty()) table << "EMULATED drives (a timing model behind the kernel, no hardware): " << emulated << '\n';
  return table.str();
}

}  // namespace disktune::tuner
