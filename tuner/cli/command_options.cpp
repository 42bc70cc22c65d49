// SPDX-License-Identifier: GPL-2.0-or-later
// Each command's own options, copied out of the parsed command line.
#include "tuner/cli/command_options.hpp"

#include "tuner/host/input_file.hpp"
#include "tuner/host/output_file.hpp"

#include <unistd.h>

namespace disktune::tuner {

DeviceRequest device_request(const Config& config) {
  return DeviceRequest{device_spec(config), config.seed, config.sim_profile, config.allow_mounted};
}

JournalOptions journal_options(const Config& config) {
  return JournalOptions{config.journal_path, config.fresh, config.force};
}

SpaceBounds space_bounds(const Config& config) {
  return SpaceBounds{config.measure.only, config.safe_only, config.allow_mounted};
}

TuneOptions tune_options(const Config& config) {
  return TuneOptions{device_request(config), journal_options(config), config.measure,
                     config.output,          config.safe_only,        config.command_line};
}

FleetOptions fleet_options(const Config& config) {
  return FleetOptions{config.devices,        config.all_drives, config.allow_mounted,
                      config.worker_options, config.output,     config.journal_path,
                      config.command_line.empty() ? "disktune" : config.command_line.front()};
}

RestoreOptions restore_options(const Config& config) {
  return RestoreOptions{device_request(config), journal_options(config)};
}

ApplyOptions apply_options(const Config& config) {
  return ApplyOptions{config.reports.empty() ? std::string() : config.reports.front(), config.config_dir,
                      device_request(config), config.device_named, config.journal_path};
}

VerifyOptions verify_options(const Config& config) {
  return VerifyOptions{config.reports, config.config_dir, config.json, config.journal_path};
}

InstallOptions install_options(const Config& config) {
  InstallOptions install = config.install;
  install.report = config.reports.empty() ? std::string() : config.reports.front();
  return install;
}

EvaluateRequest evaluate_request(const Config& config) {
  return EvaluateRequest{config.evaluate, config.measure, config.seed, config.json};
}

void check_command_inputs(const Config& config) {
  if (config.from_file) check_input_file("--from", *config.from_file);
  if (config.sim_profile) check_input_file("--sim-profile", *config.sim_profile);
  if (const auto capture = sim_capture_file(config.device)) check_input_file("DEVICE sim:FILE", *capture);
  // Several drives: --journal names a directory or holds {drive}; each worker checks its own journal.
  if (config.journal_path && !multi_drive(config)) {
    refuse_kernel_interface("--journal", *config.journal_path);  // its records would be written into the kernel
    if (::access(config.journal_path->c_str(), F_OK) == 0) check_input_file("--journal", *config.journal_path);
  }
  for (const auto& objective : config.measure.objectives)
    if (!objective.job_file.empty()) check_job_file(objective.name, objective.job_file);
}

}  // namespace disktune::tuner
