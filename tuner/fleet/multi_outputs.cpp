// SPDX-License-Identifier: GPL-2.0-or-later
// Per-drive output paths: {drive} replaced, or DIR/KEY.SUFFIX; one file for several drives refused.
#include "tuner/fleet/multi_outputs.hpp"

#include "probe/device.hpp"
#include "probe/linux/device_names.hpp"
#include "tuner/journal/journal_file.hpp"

#include <filesystem>

namespace disktune::tuner {
namespace {

namespace fs = std::filesystem;

// One per-drive output option: its value, and the file name it takes in a directory.
struct PerDrive {
  const char* option;
  const std::optional<std::string>& value;
  std::string file_name;
};

std::string per_drive_path(const PerDrive& output, const std::string& key) {
  const std::string& value = *output.value;
  if (value == "-") throw UsageError(std::string(output.option) + " - (stdout) takes one drive, not several");
  if (value.find(kDrivePlaceholder) != std::string::npos) {
    std::string path = value;  // every {drive}: "DIR/{drive}/{drive}.json" is DIR/sda/sda.json
    for (auto at = path.find(kDrivePlaceholder); at != std::string::npos; at = path.find(kDrivePlaceholder, at + key.size()))
      path.replace(at, kDrivePlaceholder.size(), key);
    return path;
  }
  std::error_code ec;
  if (fs::is_directory(value, ec)) return (fs::path(value) / output.file_name).string();
  throw UsageError(std::string(output.option) + " " + value + " names one file for several drives: give an existing " +
                   "directory or a path holding " + std::string(kDrivePlaceholder));
}

std::string state_dir() { return fs::path(default_journal_path("summary")).parent_path().string(); }

}  // namespace

std::string drive_key(const std::string& device) {
  if (!probe::is_sim_spec(device)) return probe::kernel_name(device);
  if (const auto file = sim_capture_file(device)) return "sim-" + fs::path(*file).stem().string();
  return "sim";
}

std::string summary_path(const FleetOptions& fleet) {
  return fleet.output.summary_path.value_or((fs::path(state_dir()) / "summary.json").string());
}

DriveOutputs drive_outputs(const FleetOptions& fleet, const std::string& key) {
  DriveOutputs outputs;
  const std::optional<std::string> default_report =
      (fs::path(summary_path(fleet)).parent_path() / "{drive}.report.json").string();
  const PerDrive per_drive[] = {
      {"--report", fleet.output.report_path ? fleet.output.report_path : default_report, key + ".json"},
      {"--boot-local", fleet.output.boot_local_path, key + ".boot.local"},
      {"--hdparm-conf", fleet.output.hdparm_conf_path, key + ".hdparm.conf"},
      {"--udev-rules", fleet.output.udev_rules_path, "69-disktune-" + key + ".rules"},
      {"--tuned-profile", fleet.output.tuned_profile_path, key + ".tuned.conf"},
      {"--html", fleet.output.html_path, key + ".html"},
      {"--journal", fleet.journal_path, key + ".journal"}};
  static_assert(std::size(per_drive) == kPerDriveOutputs.size(), "one path per kPerDriveOutputs option");
  for (const auto& output : per_drive) {
    if (!output.value) continue;
    outputs.options.push_back(output.option);
    outputs.options.push_back(per_drive_path(output, key));
    if (std::string_view(output.option) == "--journal") outputs.journal_path = outputs.options.back();
  }
  outputs.report_path = outputs.options[1];
  outputs.log_path = (fs::path(summary_path(fleet)).parent_path() / (key + ".log")).string();
  return outputs;
}

}  // namespace disktune::tuner
