// SPDX-License-Identifier: GPL-2.0-or-later
// Config: everything one disktune invocation was asked to do, as parsed from the command line.
#pragma once

#include "probe/identify_text.hpp"
#include "probe/settings.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace disktune::tuner {

/// The subcommands of the contract (README "CLI").
enum class Command { identify, plan, bench, tune, help, version };

/// Parsed command line. Durations in seconds; paths as given.
struct Config {
  Command command = Command::help;
  std::string help_text;                       ///< for Command::help
  std::string device = "sim:";                 ///< DEVICE: /dev path, "sim:" or "sim:FILE"
  std::optional<std::string> from_file;        ///< identify/plan --from FILE
  std::optional<probe::IdentifyFormat> format; ///< --format raw|hdparm-i|hdparm-I
  bool json = false;                           ///< --json
  int repeats = 3;                             ///< --repeats N: samples per configuration
  double duration_s = 3.0;                     ///< --duration S: seconds per buffered sample (hdparm -t: 3)
  std::optional<double> trial_timeout_s;       ///< --trial-timeout S (default: from the expected trial time)
  std::optional<double> stall_timeout_s;       ///< --stall-timeout S (default: from the baseline's chunk time)
  std::string strategy;                        ///< --strategy NAME
  std::optional<std::vector<probe::SettingId>> only;  ///< --only SETTING,...
  std::optional<std::size_t> max_trials;       ///< --max-trials N
  std::uint64_t seed = 1;                      ///< --seed N (simulated drives)
  std::optional<std::string> sim_profile;      ///< --sim-profile FILE
  std::optional<std::string> report_path;      ///< --report FILE ("-" = stdout)
  std::optional<std::string> boot_local_path;  ///< --boot-local FILE
  std::optional<std::string> hdparm_conf_path; ///< --hdparm-conf FILE
  std::optional<std::string> udev_rules_path;  ///< --udev-rules FILE
};

/// A command-line error: printed as one line, exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parse argv (Boost.Program_options). --help on any command and --version give
/// Command::help / Command::version. Throws UsageError with a one-line reason on bad input
/// (unknown command or option, bad number, unknown setting in --only, ...).
Config parse_command_line(int argc, const char* const argv[]);

}  // namespace disktune::tuner
