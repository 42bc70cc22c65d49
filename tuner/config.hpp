// SPDX-License-Identifier: GPL-2.0-or-later
// Config: everything one disktune invocation was asked to do, as parsed from the command line.
#pragma once

#include "bench/objective.hpp"
#include "probe/device.hpp"
#include "probe/identify/identify_text.hpp"
#include "probe/settings.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace disktune::tuner {

/// A way of keeping a report's answer in effect across reboots, udev events and resume.
enum class InstallForm {
  udev,         ///< etc/udev/rules.d/69-disktune-KEY.rules (results::udev_rule)
  systemd,      ///< the boot unit disktune-apply.service and the system-sleep hook
  hdparm_conf,  ///< a block in etc/hdparm.conf (Debian's hdparm package reads it at boot and on hot-plug)
  tuned,        ///< the TuneD profile etc/tuned/disktune-KEY/tuned.conf (Red Hat family)
};

/// What `install` writes without --form: the udev rule and the systemd unit and hook.
inline const std::vector<InstallForm> kDefaultInstallForms{InstallForm::udev, InstallForm::systemd};

/// The subcommands of the contract (README "CLI").
enum class Command { identify, plan, bench, tune, restore, apply, verify, install, uninstall, evaluate, report, help, version };

/// `evaluate`'s options (docs/evaluation.md): which SIMULATED drives, seeds and strategies.
struct EvaluateOptions {
  int seeds = 5;                               ///< evaluate --seeds N (seeds --seed .. --seed + N - 1)
  std::vector<std::string> strategies;         ///< evaluate --strategies A,B: empty = all; exhaustive always runs
  std::optional<std::size_t> drives;           ///< evaluate --drives N: only the first N drives
  std::string identify_dir = "../shared/data/identify";  ///< evaluate --identify-dir DIR
  std::optional<std::string> drive_filter;     ///< evaluate --drive-filter TEXT: file names containing it
};

/// `install` and `uninstall`'s options (docs/apply.md): where, with which binary, in which forms.
struct InstallOptions {
  std::optional<std::string> root;             ///< install/uninstall --root DIR (default /)
  std::optional<std::string> exe;              ///< install --exe PATH: the binary the unit and the hook run
  std::vector<InstallForm> forms = kDefaultInstallForms;  ///< install --form LIST
};

/// The files a run writes its answer to, each only when asked for (docs/inputs-outputs.md).
struct OutputPaths {
  std::optional<std::string> report_path;      ///< --report FILE ("-" = stdout)
  std::optional<std::string> boot_local_path;  ///< --boot-local FILE
  std::optional<std::string> html_path;        ///< tune/report --html FILE: the HTML report (results/html_report.hpp)
  std::optional<std::string> hdparm_conf_path; ///< --hdparm-conf FILE
  std::optional<std::string> udev_rules_path;  ///< --udev-rules FILE
  std::optional<std::string> tuned_profile_path;  ///< --tuned-profile FILE
  std::optional<std::string> summary_path;     ///< tune --summary FILE: the machine summary (several drives)
};

/// How a configuration is measured and the search bounded: tune's, bench's (its sample
/// options and objective) and evaluate's (its sampling).
struct MeasureOptions {
  int repeats = 3;                             ///< --repeats N: first samples per configuration
  int max_repeats = 10;                        ///< --max-repeats N: adaptive sampling's maximum
  int noise_repeats = 2;                       ///< --noise-repeats N: baseline trials after the first, for the noise
  double duration_s = 3.0;                     ///< --duration S: seconds per buffered sample (hdparm -t: 3)
  std::optional<double> trial_timeout_s;       ///< --trial-timeout S (default: from the expected trial time)
  std::optional<double> stall_timeout_s;       ///< --stall-timeout S (default: from the baseline's chunk time)
  /// --objective A[,B] (with --metric), parsed (bench/objective.hpp): A is optimised, B
  /// (optional) guarded; default seq-read. bench takes one.
  std::vector<bench::Objective> objectives{bench::parse_objective("seq-read", "").value()};
  double tolerance = 0.05;                     ///< --tolerance PCT / 100: how much worse than the baseline B may be
  bool full_samples = false;                   ///< --full-samples: no steady stop (bench/steady.hpp), every sample --duration s
  std::optional<double> time_budget_s;         ///< --time-budget S: measurement seconds for the search
  std::string strategy;                        ///< --strategy NAME
  std::optional<std::vector<probe::SettingId>> only;  ///< --only SETTING,...
  std::optional<std::size_t> max_trials;       ///< --max-trials N
};

/// `bench --method`: which of hdparm's two figures to measure.
struct BenchMethods {
  bool cached    = true;                    ///< bench --method cached|both: measure cached reads (-T)
  bool buffered    = true;                  ///< bench --method buffered|both: measure buffered reads (-t)
};

/// Parsed command line. Durations in seconds; paths as given.
struct Config {
  Command command = Command::help;
  std::string help_text;                       ///< for Command::help
  bool help_is_error = false;                  ///< no command given: usage on stderr, exit 2
  std::string device = "sim:";                 ///< DEVICE: /dev path, "sim:" or "sim:FILE"
  bool device_named = false;                   ///< apply: a DEVICE was given after REPORT
  /// tune DEV... / --all: every DEVICE named, as given (one: `device` too, a single-drive tune).
  std::vector<std::string> devices;
  bool all_drives = false;                     ///< tune --all: every free whole disk (docs/multi-drive.md)
  /// tune: the option tokens as given, less DEVICE, --all, --summary and the per-drive
  /// outputs (--report ... --journal): what each drive's worker is run with.
  std::vector<std::string> worker_options;
  std::vector<std::string> reports;            ///< apply REPORT, verify REPORT...: report files as given
  std::optional<std::string> config_dir;       ///< apply/verify --config DIR: every *.json in it
  std::optional<std::string> from_file;        ///< identify/plan --from FILE
  std::optional<probe::IdentifyFormat> format; ///< --format raw|hdparm-i|hdparm-I
  bool json = false;                           ///< --json
  std::uint64_t seed = 1;                      ///< --seed N (simulated drives)
  std::optional<std::string> sim_profile;      ///< --sim-profile FILE
  std::optional<std::string> journal_path;     ///< --journal FILE (default: per device, see journal_file.hpp)
  bool fresh = false;                          ///< --fresh: set an unfinished journal aside, start over
  bool force = false;                          ///< --force: resume a journal from another drive or kernel
  bool allow_mounted = false;                  ///< --allow-mounted: tune a disk that is mounted or held by md/dm
  bool safe_only = false;                      ///< --safe-only: search only settings that cannot lose data
  std::vector<std::string> command_line;       ///< argv as given ("disktune", command, options), for the record
  MeasureOptions measure;                      ///< tune, bench and evaluate
  BenchMethods bench;                          ///< bench only
  EvaluateOptions evaluate;                    ///< evaluate only
  InstallOptions install;                      ///< install and uninstall only
  OutputPaths output;                          ///< tune, report (--html) and bench (--report)
};

/// The capture file a "sim:FILE" DEVICE names; nullopt for "sim:" and real devices.
inline std::optional<std::string> sim_capture_file(const std::string& device) {
  if (device.size() <= 4 || !probe::is_sim_spec(device)) return std::nullopt;
  return device.substr(4);
}

/// The device spec a command opens: "sim:FILE" for --from FILE, else DEVICE as given.
inline std::string device_spec(const Config& config) {
  return config.from_file ? std::string(probe::kSimSpec) + *config.from_file : config.device;
}

/// A tune of several drives (DEV... with more than one, or --all): one worker process per
/// drive (tuner/fleet/multi_tune.hpp) instead of the single-drive tune.
inline bool multi_drive(const Config& config) {
  return config.command == Command::tune && (config.all_drives || config.devices.size() > 1);
}

/// A command-line error: printed as one line, exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace disktune::tuner
