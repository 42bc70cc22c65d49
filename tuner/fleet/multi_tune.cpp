// SPDX-License-Identifier: GPL-2.0-or-later
// A multi-drive tune: choose the drives, group them, run a worker each, write the summary.
#include "tuner/fleet/multi_tune.hpp"

#include "tuner/host/clock_text.hpp"
#include "tuner/fleet/drive_list.hpp"
#include "tuner/fleet/drive_workers.hpp"
#include "tuner/fleet/multi_outputs.hpp"
#include "tuner/fleet/multi_summary.hpp"
#include "tuner/host/output_file.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>

namespace disktune::tuner {
namespace {

// The devices named, then (--all) every free disk not named already; `skipped` says why the others are left out.
std::vector<std::string> chosen_devices(const FleetOptions& fleet, std::vector<std::string>& skipped) {
  std::vector<std::string> devices = fleet.devices;
  if (!fleet.all_drives) return devices;
  std::vector<std::string> keys;
  for (const auto& device : devices) keys.push_back(drive_key(device));
  auto list = free_disks(fleet.allow_mounted);
  for (const auto& name : list.drives)
    if (std::find(keys.begin(), keys.end(), name) == keys.end()) devices.push_back("/dev/" + name);
  skipped = std::move(list.skipped);
  return devices;
}

std::vector<std::string> distinct_keys(const std::vector<std::string>& devices) {
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto key = drive_key(devices[i]);
    if (const auto it = std::find(keys.begin(), keys.end(), key); it != keys.end())
      throw UsageError(devices[static_cast<std::size_t>(it - keys.begin())] + " and " + devices[i] +
                       " name one drive (" + key + "): name each drive once");
    keys.push_back(key);
  }
  return keys;
}

DriveRun drive_run(const FleetOptions& fleet, const std::string& device, const std::string& key, std::size_t group) {
  DriveRun run;
  run.device = device;
  run.key = key;
  run.group = group;
  const auto outputs = drive_outputs(fleet, key);
  run.report_path = outputs.report_path;
  run.log_path = outputs.log_path;
  run.journal_path = outputs.journal_path;
  run.output_options = outputs.options;
  run.argv = {fleet.program, "tune", device};
  run.argv.insert(run.argv.end(), fleet.worker_options.begin(), fleet.worker_options.end());
  run.argv.insert(run.argv.end(), outputs.options.begin(), outputs.options.end());
  return run;
}

// No two files of the machine (the summary, each drive's log, its report, journal and
// snippets) are one: a summary written over a drive's journal loses the one way back to its
// settings, over its report the answer. Throws UsageError naming both and the path.
void refuse_shared_files(const std::string& summary, const std::vector<DriveRun>& runs) {
  std::vector<std::pair<std::string, std::string>> files{{"--summary", summary}};
  for (const auto& run : runs) {
    files.emplace_back(run.key + "'s log", run.log_path);
    for (std::size_t i = 0; i + 1 < run.output_options.size(); i += 2)
      files.emplace_back(run.output_options[i] + " of " + run.key, run.output_options[i + 1]);
  }
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t j = i + 1; j < files.size(); ++j)
      if (same_file(files[i].second, files[j].second))
        throw UsageError(files[i].first + " and " + files[j].first + " name the same file (" + files[i].second + ")");
}

// The runs in group order (a group's drives in the order named).
std::vector<DriveRun> plan_runs(const FleetOptions& fleet, const std::vector<std::string>& devices,
                                const std::vector<std::string>& keys, const std::vector<DriveGroup>& groups) {
  std::vector<DriveRun> runs;
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (const auto& key : groups[g].drives) {
      const auto at = static_cast<std::size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin());
      runs.push_back(drive_run(fleet, devices[at], key, g));
    }
  return runs;
}

}  // namespace

ExitCode run_multi_tune(const FleetOptions& fleet, std::ostream& out, std::ostream& err) {
  MachineRun machine;
  const auto devices = chosen_devices(fleet, machine.skipped);
  for (const auto& why : machine.skipped) err << "disktune: --all leaves out " << why << '\n';
  if (devices.empty()) throw UsageError("--all found no drive to tune (name one: tune DEVICE...)");
  const auto keys = distinct_keys(devices);
  const std::string summary = summary_path(fleet);
  check_output_path(summary);
  machine.groups = group_drives(keys);
  machine.runs = plan_runs(fleet, devices, keys, machine.groups);
  for (const auto& run : machine.runs) check_output_path(run.log_path);
  refuse_shared_files(summary, machine.runs);
  err << "disktune: tuning " << machine.runs.size() << " drives in " << machine.groups.size()
      << (machine.groups.size() == 1 ? " group" : " groups") << "; each drive's output goes to its log ("
      << machine.runs.front().log_path << ", ...)\n";
  machine.started_at = utc_timestamp();
  run_workers(machine.runs, machine.groups.size());
  machine.finished_at = utc_timestamp();
  out << summary_table(machine);
  write_output(summary, boost::json::serialize(summary_json(machine)) + "\n");
  out << "summary: " << summary << '\n';
  return machine_exit_code(machine.runs);
}

}  // namespace disktune::tuner
