// SPDX-License-Identifier: GPL-2.0-or-later
// Command-line parsing with Boost.Program_options: one options table per subcommand.
#include "tuner/config.hpp"

#include "probe/in_use.hpp"
#include "strategies/registry.hpp"
#include "tuner/version.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace disktune::tuner {
namespace po = boost::program_options;
namespace {

constexpr const char* kUsage =
    "usage: disktune COMMAND [options]\n"
    "  identify [DEVICE | --from FILE [--format raw|hdparm-i|hdparm-I]] [--json]\n"
    "  plan     [DEVICE | --from FILE [--format raw|hdparm-i|hdparm-I]] [--safe-only] [--allow-mounted]\n"
    "           [--json]\n"
    "  bench    [DEVICE] [--objective NAME [--metric M]] [--repeats N] [--duration S] [--full-samples]\n"
    "           [--method cached|buffered|both] [--json]\n"
    "  tune     [DEVICE] [--strategy NAME] [--repeats N] [--max-repeats N] [--duration S] [--full-samples]\n"
    "           [--trial-timeout S] [--stall-timeout S] [--only SETTING,...] [--max-trials N]\n"
    "           [--time-budget S] [--report FILE] [--boot-local FILE]\n"
    "           [--hdparm-conf FILE] [--udev-rules FILE] [--tuned-profile FILE] [--journal FILE] [--fresh] [--force]\n"
    "           [--safe-only] [--allow-mounted] [--noise-repeats N]\n"
    "           [--objective NAME[,NAME]] [--metric M] [--tolerance PCT]\n"
    "  restore  [DEVICE] [--journal FILE] [--force]\n"
    "  apply    REPORT [DEVICE] | --config DIR [--journal FILE] [--allow-mounted]\n"
    "  verify   REPORT... | --config DIR [--json]\n"
    "  install  REPORT [--root DIR] [--exe PATH]     uninstall REPORT [--root DIR]\n"
    "  evaluate [--seeds N] [--seed FIRST] [--strategies NAME,...] [--drives N] [--drive-filter TEXT]\n"
    "           [--identify-dir DIR] [--duration S] [--repeats N] [--max-repeats N] [--json]\n"
    "           [--objective NAME] [--metric M]\n"
    "Every command also takes --seed N and --sim-profile FILE for simulated drives.\n"
    "DEVICE: a whole-disk block device (/dev/sda, /dev/loop0), sim: (the simulated seed drive,\n"
    "the default) or sim:FILE (a simulated drive built from an identify capture).\n"
    "Run 'disktune COMMAND --help' for a command's options.\n";

std::optional<Command> command_from_name(const std::string& name) {
  if (name == "identify") return Command::identify;
  if (name == "plan") return Command::plan;
  if (name == "bench") return Command::bench;
  if (name == "tune") return Command::tune;
  if (name == "restore") return Command::restore;
  if (name == "apply") return Command::apply;
  if (name == "verify") return Command::verify;
  if (name == "install") return Command::install;
  if (name == "uninstall") return Command::uninstall;
  if (name == "evaluate") return Command::evaluate;
  return std::nullopt;
}

// "search strategy: NAME (description); ..." from the registry, for --help.
std::string strategy_list() {
  std::string list = "search strategy:";
  for (const auto& name : strategies::strategy_names())
    if (auto strategy = strategies::make_strategy(name)) list += "\n  " + name + ": " + std::string((*strategy)->description());
  return list;
}

// --objective's help: every built-in objective and what it measures.
std::string objective_help() {
  return "what a trial is judged by: seq-read (hdparm -t buffered sequential reads, MB/s; the default), "
         "seq-read-direct (fio, 1 MiB O_DIRECT reads at queue depth 16, MB/s), rand-read-iops (fio, 4 KiB "
         "random reads at queue depth 32, IOPS), rand-read-latency (fio, 4 KiB random reads at queue depth 1, "
         "p99 completion latency in us, lower is better) or fio:FILE (your fio job file, read-only); A,B "
         "optimises A and keeps B within --tolerance of the baseline";
}

po::options_description common_options() {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("seed", po::value<std::string>()->default_value("1"), "noise seed of a simulated drive (0-4294967295)")
      ("sim-profile", po::value<std::string>(), "JSON behaviour profile of a simulated drive");
  return options;
}

// "what to measure: seq-read (default), seq-read-direct, ..., fio:FILE" for --help.
// --objective and --metric: one definition for every command that measures.
void add_objective_options(po::options_description& options) {
  options.add_options()
      ("objective", po::value<std::string>(), objective_help().c_str())
      ("metric", po::value<std::string>(), "the figure of a fio:FILE objective: bw, iops, p99 or p999 (default: bw for a sequential job, iops for a random one)");
}

po::options_description command_options(Command command) {
  auto options = common_options();
  if (command == Command::identify || command == Command::plan || command == Command::bench ||
      command == Command::evaluate || command == Command::verify)
    options.add_options()("json", "print JSON instead of text");
  if (command == Command::verify || command == Command::apply)
    options.add_options()("config", po::value<std::string>(), "every report (*.json) in this directory");
  if (command == Command::install || command == Command::uninstall)
    options.add_options()("root", po::value<std::string>(), "install under this directory instead of / (packaging, tests)");
  if (command == Command::install)
    options.add_options()("exe", po::value<std::string>(), "the disktune binary the boot unit and the resume hook run (default /usr/bin/disktune)");
  if (command == Command::apply) {
    options.add_options()
        ("journal", po::value<std::string>(), "apply journal (default: /var/lib/disktune/<drive>.apply.journal)")
        ("allow-mounted", "apply to a disk even if it is mounted, swapped on or held by md/dm/LVM");
  }
  if (command == Command::identify || command == Command::plan) {
    options.add_options()
        ("from", po::value<std::string>(), "read identify data from a capture instead of a device")
        ("format", po::value<std::string>(), "format of --from: raw, hdparm-i or hdparm-I (default: detect)");
  }
  if (command == Command::plan || command == Command::tune) {
    options.add_options()
        ("safe-only", "search only settings that cannot lose data (the block-layer ones, APM, AAM)")
        ("allow-mounted", "tune a disk even if it is mounted, swapped on or held by md/dm/LVM, with its data-safe "
                          "knobs only (the ATA knobs are refused; plan: show that space)");
  }
  if (command == Command::bench || command == Command::tune) {
    options.add_options()
        ("repeats", po::value<std::string>()->default_value("3"), "samples per configuration (1-1000)")
        ("duration", po::value<std::string>()->default_value("3"), "seconds per sample: buffered reads (hdparm -t: 3) or one fio run (0.01-3600)")
        ("full-samples", "every buffered-read sample runs --duration s (default on a real device: a sample ends once its rate is steady, its figure projected to --duration)");
  }
  if (command == Command::bench) {
    add_objective_options(options);
    options.add_options()
        ("method", po::value<std::string>()->default_value("both"),
         "seq-read: cached (hdparm -T), buffered (hdparm -t) or both");
  }
  if (command == Command::tune || command == Command::evaluate) add_objective_options(options);
  if (command == Command::tune) {
    options.add_options()
        ("tolerance", po::value<std::string>()->default_value("5"), "--objective A,B: percent by which the chosen configuration may be worse than the baseline on B (0-100)");
  }
  if (command == Command::tune || command == Command::evaluate) {
    options.add_options()
        ("max-repeats", po::value<std::string>()->default_value("10"), "adaptive sampling: at most this many samples per configuration (--repeats to 1000)");
  }
  if (command == Command::evaluate) {
    options.add_options()
        ("seeds", po::value<std::string>()->default_value("5"), "noise seeds per simulated drive: --seed, --seed + 1, ... (1-10000)")
        ("strategies", po::value<std::string>(), "comma-separated strategies to evaluate (default: all; exhaustive, the reference, always runs)")
        ("drives", po::value<std::string>(), "only the first N tunable drives (file name order; 1-100000)")
        ("drive-filter", po::value<std::string>(), "only identify files whose name contains TEXT")
        ("identify-dir", po::value<std::string>()->default_value("../shared/data/identify"), "identify captures to simulate drives from")
        ("duration", po::value<std::string>()->default_value("0.1"), "virtual seconds per buffered-read sample (0.01-3600)")
        ("repeats", po::value<std::string>()->default_value("3"), "first samples per configuration (1-1000)");
  }
  if (command == Command::tune) {
    options.add_options()
        ("time-budget", po::value<std::string>(), "stop the search after this many seconds of measurement (0.1-2592000)")
        ("strategy", po::value<std::string>()->default_value(strategies::default_strategy_name()),
         strategy_list().c_str())
        ("trial-timeout", po::value<std::string>(), "seconds before a trial is killed: hung without progress, slow with it (default: from the baseline's rate; 0.1-86400)")
        ("stall-timeout", po::value<std::string>(), "seconds without a finished read before a trial counts as hung (default: 20 x one chunk's time at the baseline rate, 5 s at least; 0.1-86400)")
        ("only", po::value<std::string>(), "comma-separated settings to search (others keep their value)")
        ("max-trials", po::value<std::string>(), "stop after this many trials (1-1000000)")
        ("noise-repeats", po::value<std::string>(), "baseline trials measured after the first for the noise (default 2; 1-10)")
        ("report", po::value<std::string>(), "write the JSON report here (- = stdout)")
        ("boot-local", po::value<std::string>(), "write the boot.local snippet here")
        ("hdparm-conf", po::value<std::string>(), "write an /etc/hdparm.conf block here")
        ("udev-rules", po::value<std::string>(), "write a udev rules file here")
        ("tuned-profile", po::value<std::string>(), "write a TuneD profile fragment here (Red Hat family)")
        ("fresh", "set the journal aside (renamed, whatever its state) and start over");
  }
  if (command == Command::tune || command == Command::restore) {
    options.add_options()
        ("journal", po::value<std::string>(), "journal file (default: /var/lib/disktune/<drive>.journal)")
        ("force", "use a journal recorded under another device name or kernel (another drive's is always refused)");
  }
  return options;
}

// evaluate --strategies: registered names, exhaustive added as the reference when missing.
std::vector<std::string> parse_strategies(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream stream(list);
  for (std::string name; std::getline(stream, name, ',');) {
    if (auto strategy = strategies::make_strategy(name); !strategy)
      throw UsageError("--strategies: " + strategy.error().op);
    names.push_back(name);
  }
  if (names.empty()) throw UsageError("--strategies: no strategies named");
  if (std::find(names.begin(), names.end(), "exhaustive") == names.end()) names.push_back("exhaustive");
  return names;
}

// --only naming a knob that a disk in use (--allow-mounted) never has changed.
void refuse_unsafe_only(const Config& config) {
  if (!config.allow_mounted || !config.only) return;
  for (const auto id : *config.only)
    if (const auto hazard = probe::in_use_hazard(id))
      throw UsageError("--only " + std::string(probe::setting_name(id)) + " with --allow-mounted: " +
                       std::string(probe::kInUsePrefix) + std::string(*hazard) +
                       " (unmount the disk and tune it without --allow-mounted)");
}

std::vector<probe::SettingId> parse_only(const std::string& list) {
  std::vector<probe::SettingId> ids;
  std::stringstream stream(list);
  for (std::string name; std::getline(stream, name, ',');) {
    const auto id = probe::setting_from_name(name);
    if (!id) throw UsageError("--only: unknown setting '" + name + "'");
    ids.push_back(*id);
  }
  if (ids.empty()) throw UsageError("--only: no settings named");
  return ids;
}

template <class T>
std::optional<T> optional_value(const po::variables_map& vm, const char* name) {
  if (!vm.count(name)) return std::nullopt;
  return vm[name].as<T>();
}

// Seeds are stored in the JSON report; 32 bits keep them exact in every JSON reader.
std::uint64_t parse_seed(const std::string& text) {
  std::uint64_t seed = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (ec != std::errc{} || end != text.data() + text.size() || seed > 0xFFFFFFFFu)
    throw UsageError("--seed must be a whole number from 0 to 4294967295, not '" + text + "'");
  return seed;
}

// Accepted ranges of the numeric options (README "Options"): a value outside is a usage error
// that states the range, never clamped. The upper bounds keep every derived time limit and
// sample count finite and exact (1e10 s overflows a nanosecond clock).
struct Range {
  double min;
  double max;
};
constexpr Range kRepeats{1, 1000};
constexpr Range kDurationS{0.01, 3600};
constexpr Range kTimeoutS{0.1, 86400};
constexpr Range kTimeBudgetS{0.1, 2592000};
constexpr Range kMaxTrials{1, 1000000};
constexpr Range kNoiseRepeats{1, 10};
constexpr Range kSeeds{1, 10000};
constexpr Range kDrives{1, 100000};
constexpr Range kPercent{0, 100};

std::string range_text(Range range) {
  std::ostringstream text;
  text << std::setprecision(10) << range.min << " to " << range.max;
  return text.str();
}

[[noreturn]] void out_of_range(const char* name, const char* kind, Range range, const std::string& text) {
  throw UsageError(std::string("--") + name + " must be " + kind + " from " + range_text(range) + ", not '" + text + "'");
}

// A whole number in `range`: no sign, fraction or exponent.
long long whole_number(const char* name, const std::string& text, Range range) {
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const auto number = static_cast<double>(value);
  if (ec != std::errc{} || end != text.data() + text.size() || number < range.min || number > range.max)
    out_of_range(name, "a whole number", range, text);
  return value;
}

// A finite number in `range` (inf, nan and 1e300 are not); `kind` names it in the error.
double bounded_number(const char* name, const char* kind, const std::string& text, Range range) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(value) || value < range.min ||
      value > range.max)
    out_of_range(name, kind, range, text);
  return value;
}

double seconds(const char* name, const std::string& text, Range range) {
  return bounded_number(name, "a number of seconds", text, range);
}

std::optional<long long> optional_count(const po::variables_map& vm, const char* name, Range range) {
  if (!vm.count(name)) return std::nullopt;
  return whole_number(name, vm[name].as<std::string>(), range);
}

std::optional<double> optional_seconds(const po::variables_map& vm, const char* name, Range range) {
  if (!vm.count(name)) return std::nullopt;
  return seconds(name, vm[name].as<std::string>(), range);
}

void parse_bench_method(Config& config, const std::string& method) {
  if (method != "cached" && method != "buffered" && method != "both")
    throw UsageError("--method must be cached, buffered or both, not '" + method + "'");
  config.bench_cached = method != "buffered";
  config.bench_buffered = method != "cached";
}

// --objective / --metric into config.objectives (kept at seq-read when neither is given).
void parse_objective_options(Config& config, const po::variables_map& vm) {
  if (!vm.count("objective") && !vm.count("metric")) return;
  const auto metric = optional_value<std::string>(vm, "metric").value_or("");
  auto objectives = bench::parse_objectives(optional_value<std::string>(vm, "objective").value_or("seq-read"), metric);
  if (!objectives) throw UsageError(objectives.error().op);
  config.objectives = std::move(*objectives);
}

// --tolerance bounds the guard objective B of --objective A,B: without B it would bound nothing.
void parse_tolerance(Config& config, const po::variables_map& vm) {
  if (!vm.count("tolerance")) return;
  config.tolerance = bounded_number("tolerance", "a percentage", vm["tolerance"].as<std::string>(), kPercent) / 100.0;
  if (!vm["tolerance"].defaulted() && config.objectives.size() < 2)
    throw UsageError("--tolerance needs a second objective (--objective A,B): it bounds how much worse than the "
                     "baseline the chosen configuration may be on B");
}

// bench measures one objective, and --method is seq-read's.
void check_bench_objective(const Config& config, const po::variables_map& vm) {
  if (config.objectives.size() != 1) throw UsageError("bench measures one objective: give one --objective NAME");
  if (config.objectives[0].engine != bench::Engine::hdparm_reads && !vm["method"].defaulted())
    throw UsageError("--method applies to --objective seq-read only");
}

void fill_config(Config& config, const po::variables_map& vm) {
  config.json = vm.count("json") > 0;
  config.seed = parse_seed(vm["seed"].as<std::string>());
  config.sim_profile = optional_value<std::string>(vm, "sim-profile");
  if (vm.count("device")) config.device = vm["device"].as<std::string>();
  config.from_file = optional_value<std::string>(vm, "from");
  if (const auto format = optional_value<std::string>(vm, "format")) {
    config.format = probe::identify_format_from_name(*format);
    if (!config.format) throw UsageError("--format must be raw, hdparm-i or hdparm-I, not '" + *format + "'");
  }
  if (const auto n = optional_count(vm, "repeats", kRepeats)) config.repeats = static_cast<int>(*n);
  if (const auto s = optional_seconds(vm, "duration", kDurationS)) config.duration_s = *s;
  if (const auto method = optional_value<std::string>(vm, "method")) parse_bench_method(config, *method);
  parse_objective_options(config, vm);
  config.trial_timeout_s = optional_seconds(vm, "trial-timeout", kTimeoutS);
  config.stall_timeout_s = optional_seconds(vm, "stall-timeout", kTimeoutS);
  if (vm.count("strategy")) config.strategy = vm["strategy"].as<std::string>();
  if (vm.count("only")) config.only = parse_only(vm["only"].as<std::string>());
  if (const auto n = optional_count(vm, "max-trials", kMaxTrials)) config.max_trials = static_cast<std::size_t>(*n);
  if (const auto n = optional_count(vm, "max-repeats", kRepeats))
    config.max_repeats = static_cast<int>(*n);
  if (const auto n = optional_count(vm, "noise-repeats", kNoiseRepeats)) config.noise_repeats = static_cast<int>(*n);
  if (config.max_repeats < config.repeats) throw UsageError("--max-repeats must be at least --repeats");
  config.time_budget_s = optional_seconds(vm, "time-budget", kTimeBudgetS);
  if (const auto n = optional_count(vm, "seeds", kSeeds)) config.seeds = static_cast<int>(*n);
  if (vm.count("seeds") && config.seed + static_cast<std::uint64_t>(config.seeds) - 1 > 0xFFFFFFFFu)
    throw UsageError("--seed + --seeds - 1 must be at most 4294967295 (seeds are 32 bits)");
  if (vm.count("strategies")) config.strategies = parse_strategies(vm["strategies"].as<std::string>());
  if (const auto n = optional_count(vm, "drives", kDrives)) config.drives = static_cast<std::size_t>(*n);
  config.drive_filter = optional_value<std::string>(vm, "drive-filter");
  if (vm.count("identify-dir")) config.identify_dir = vm["identify-dir"].as<std::string>();
  config.report_path = optional_value<std::string>(vm, "report");
  config.boot_local_path = optional_value<std::string>(vm, "boot-local");
  config.hdparm_conf_path = optional_value<std::string>(vm, "hdparm-conf");
  config.udev_rules_path = optional_value<std::string>(vm, "udev-rules");
  config.tuned_profile_path = optional_value<std::string>(vm, "tuned-profile");
  config.journal_path = optional_value<std::string>(vm, "journal");
  config.fresh = vm.count("fresh") > 0;
  config.force = vm.count("force") > 0;
  config.allow_mounted = vm.count("allow-mounted") > 0;
  config.safe_only = vm.count("safe-only") > 0;
  refuse_unsafe_only(config);
  parse_tolerance(config, vm);
  config.full_samples = vm.count("full-samples") > 0;
}

// apply REPORT [DEVICE]; verify REPORT... or --config DIR.
void fill_reports(Config& config, const po::variables_map& vm) {
  auto args = vm.count("argument") ? vm["argument"].as<std::vector<std::string>>() : std::vector<std::string>{};
  config.config_dir = optional_value<std::string>(vm, "config");
  config.install_root = optional_value<std::string>(vm, "root");
  config.install_exe = optional_value<std::string>(vm, "exe");
  if (config.command == Command::apply && config.config_dir) {
    if (!args.empty()) throw UsageError("apply takes REPORT [DEVICE] or --config DIR, not both");
    return;
  }
  if (config.command == Command::apply || config.command == Command::install || config.command == Command::uninstall) {
    const std::size_t most = config.command == Command::apply ? 2 : 1;
    if (args.empty() || args.size() > most)
      throw UsageError(std::string(config.command == Command::apply ? "apply takes REPORT and an optional DEVICE"
                                                                    : "install and uninstall take one REPORT"));
    config.reports = {args[0]};
    if (args.size() == 2) {
      config.device = args[1];
      config.device_named = true;
    }
    return;
  }
  if (config.config_dir && !args.empty()) throw UsageError("verify takes REPORT... or --config DIR, not both");
  if (!config.config_dir && args.empty()) throw UsageError("verify needs REPORT... or --config DIR");
  config.reports = std::move(args);
}

Config help(std::string text) {
  Config config;
  config.command = Command::help;
  config.help_text = std::move(text);
  return config;
}

}  // namespace

Config parse_command_line(int argc, const char* const argv[]) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    Config config = help(kUsage);
    config.help_is_error = true;
    return config;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") return help(kUsage);
  if (args[0] == "--version") {
    Config config;
    config.command = Command::version;
    return config;
  }
  const auto command = command_from_name(args[0]);
  if (!command) throw UsageError("unknown command '" + args[0] + "' (identify, plan, bench, tune, restore, apply, verify, install, uninstall, evaluate)");
  const auto options = command_options(*command);
  po::options_description all;
  all.add(options).add_options()("device", po::value<std::string>());
  const bool takes_reports = *command == Command::apply || *command == Command::verify ||
                             *command == Command::install || *command == Command::uninstall;
  if (takes_reports) all.add_options()("argument", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  if (takes_reports)
    positional.add("argument", -1);
  else
    positional.add("device", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(std::vector<std::string>(args.begin() + 1, args.end()))
                  .options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (vm.count("help")) {
    std::ostringstream text;
    text << kUsage << '\n' << options;
    return help(text.str());
  }
  Config config;
  config.command = *command;
  config.command_line.assign(argv, argv + argc);
  fill_config(config, vm);
  if (takes_reports) fill_reports(config, vm);
  if (config.from_file && vm.count("device")) throw UsageError("give either DEVICE or --from FILE, not both");
  if (config.format && !config.from_file) throw UsageError("--format goes with --from FILE");
  if (config.command == Command::bench) check_bench_objective(config, vm);
  return config;
}

}  // namespace disktune::tuner
