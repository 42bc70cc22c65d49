// SPDX-License-Identifier: GPL-2.0-or-later
// Config: everything one disktune invocation was asked to do, as parsed from the command line;
// each command is handed only its own options (command_options.hpp).
#pragma once

#include "probe/device.hpp"
#include "probe/identify/identify_text.hpp"
#include "tuner/evaluate/evaluate.hpp"
#include "tuner/host/output_file.hpp"
#include "tuner/keep/install.hpp"
#include "tuner/run/tune_options.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace disktune::tuner {

/// The subcommands of the contract (README "CLI").
enum class Command { identify, plan, bench, tune, restore, apply, verify, install, uninstall, evaluate, report, help, version };

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

/// The device spec a command opens: "sim:FILE" for --from FILE, else DEVICE as given.
inline std::string device_spec(const Config& config) {
  return config.from_file ? std::string(probe::kSimSpec) + *config.from_file : config.device;
}

/// A tune of several drives (DEV... with more than one, or --all): one worker process per
/// drive (tuner/fleet/multi_tune.hpp) instead of the single-drive tune.
inline bool multi_drive(const Config& config) {
  return config.command == Command::tune && (config.all_drives || config.devices.size() > 1);
}

}  // namespace disktune::tuner
