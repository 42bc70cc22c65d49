// SPDX-License-Identifier: GPL-2.0-or-later
// Command-line parsing with Boost.Program_options: the tables come from cli_options, the
// numbers are checked by cli_numbers, and this file turns a parsed command line into a Config.
#include "tuner/cli/cli.hpp"

#include "probe/core/text.hpp"

#include "bench/objective.hpp"
#include "probe/in_use.hpp"
#include "strategies/registry.hpp"
#include "tuner/cli/cli_numbers.hpp"
#include "tuner/cli/cli_options.hpp"
#include "tuner/keep/install_forms.hpp"
#include "tuner/fleet/multi_outputs.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <sstream>

namespace disktune::tuner {
namespace po = boost::program_options;
namespace {

// evaluate --strategies: registered names (exhaustive only when named: runs are judged against the truth).
std::vector<std::string> parse_strategies(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream stream(list);
  for (std::string name; std::getline(stream, name, ',');) {
    if (auto strategy = strategies::make_strategy(name); !strategy)
      throw UsageError("--strategies: " + strategy.error().op);
    names.push_back(name);
  }
  if (names.empty()) throw UsageError("--strategies: no strategies named");
  return names;
}

// --only naming a knob that a disk in use (--allow-mounted) never has changed.
void refuse_unsafe_only(const Config& config) {
  if (!config.allow_mounted || !config.measure.only) return;
  for (const auto id : *config.measure.only)
    if (const auto hazard = probe::in_use_hazard(id))
      throw UsageError("--only " + std::string(probe::setting_name(id)) + " with --allow-mounted: " +
                       std::string(probe::kInUsePrefix) + std::string(*hazard) +
                       " (unmount the disk and tune it without --allow-mounted)");
}

// "multcount, io_support, ...": every setting's name, in apply order.
std::string setting_names() {
  std::string names;
  for (const auto id : probe::all_settings()) names += (names.empty() ? "" : ", ") + std::string(probe::setting_name(id));
  return names;
}

// Edits (insert, delete, substitute) that turn `a` into `b` (Levenshtein).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The candidate nearest `given`, within 3 edits; "" when none is.
// Within 3 edits and at most half the given word's length: "foo" is no misspelling of "apm".
std::string closest(const std::string& given, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::min<std::size_t>(4, given.size() / 2 + 1);
  for (const auto& candidate : candidates) {
    const auto distance = edit_distance(given, candidate);
    if (distance < best_distance) best_distance = distance, best = candidate;
  }
  return best;
}

// " (did you mean --NAME?)" for the command's option nearest a misspelled one, within 3 edits.
std::string closest_option(const std::string& given, const po::options_description& options) {
  const std::string name = given.substr(given.find_first_not_of('-') == std::string::npos ? 0 : given.find_first_not_of('-'));
  std::vector<std::string> names;
  for (const auto& option : options.options()) names.push_back(option->long_name());
  const std::string best = closest(name, names);
  return best.empty() ? "" : " (did you mean --" + best + "?)";
}

// " did you mean 'NAME'?" for the setting nearest a misspelled one ("readahead_kb").
std::string closest_setting(const std::string& given) {
  std::vector<std::string> names;
  for (const auto id : probe::all_settings()) names.emplace_back(probe::setting_name(id));
  const std::string best = closest(given, names);
  return best.empty() ? "" : " did you mean '" + best + "'?";
}

// The usage lines of one command (its part of usage_text), for COMMAND --help.
std::string command_usage(const std::string& command) {
  std::istringstream lines(usage_text());
  std::string text;
  bool in_command = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("  ") && !line.starts_with("   ")) in_command = line.substr(2).starts_with(command + " ");
    else if (!line.starts_with("   ")) in_command = false;
    if (in_command) text += (text.empty() ? "usage: disktune " + line.substr(2) : line) + '\n';
  }
  // Every command's that can open a SIMULATED drive (usage_text says so once, below the
  // commands); evaluate names its own --seed. report, install and uninstall read files only.
  const bool files_only = command == "report" || command == "install" || command == "uninstall";
  if (!text.empty() && !files_only)
    text += text.find("[--seed ") == std::string::npos ? "           [--seed N] [--sim-profile FILE]\n"
                                                        : "           [--sim-profile FILE]\n";
  return text;
}

std::vector<probe::SettingId> parse_only(const std::string& list) {
  std::vector<probe::SettingId> ids;
  std::stringstream stream(list);
  for (std::string name; std::getline(stream, name, ',');) {
    const auto id = probe::setting_from_name(name);
    if (!id)
      throw UsageError("--only: unknown setting '" + name + "'" + (closest_setting(name).empty() ? "" : ":" + closest_setting(name)) +
                       " (the settings: " + setting_names() + ")");
    if (std::find(ids.begin(), ids.end(), *id) != ids.end())
      throw UsageError("--only: setting '" + name + "' named twice");
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
  config.bench.cached = method != "buffered";
  config.bench.buffered = method != "cached";
}

// --objective / --metric into config.objectives (kept at seq-read when neither is given).
void parse_objective_options(Config& config, const po::variables_map& vm) {
  if (!vm.count("objective") && !vm.count("metric")) return;
  const auto metric = optional_value<std::string>(vm, "metric").value_or("");
  auto objectives = bench::parse_objectives(optional_value<std::string>(vm, "objective").value_or("seq-read"), metric);
  if (!objectives) throw UsageError(objectives.error().op);
  config.measure.objectives = std::move(*objectives);
}

// A pooled percentile (rand-read-latency) is judged by its completions, not by a median of
// samples: its interval holds from one sample's (bench/latency_pool.hpp), so a tune or an
// evaluation takes no minimum beyond the first sample unless --repeats asks for one. bench keeps
// 3 (it shows the samples), and so does a run with a guard objective (its samples are a fixed
// count, the minimum).
void default_pooled_repeats(Config& config, const po::variables_map& vm) {
  if (!vm.count("repeats") || !vm["repeats"].defaulted()) return;
  if (config.command != Command::tune && config.command != Command::evaluate) return;
  const auto& objectives = config.measure.objectives;
  if (objectives.size() == 1 && bench::percentile_completions(objectives.front())) config.measure.repeats = 1;
}

// --tolerance bounds the guard objective B of --objective A,B: without B it would bound nothing.
void parse_tolerance(Config& config, const po::variables_map& vm) {
  if (!vm.count("tolerance")) return;
  config.measure.tolerance = bounded_number("tolerance", "a percentage", vm["tolerance"].as<std::string>(), kPercent) / 100.0;
  if (!vm["tolerance"].defaulted() && config.measure.objectives.size() < 2)
    throw UsageError("--tolerance needs a second objective (--objective A,B): it bounds how much worse than the "
                     "baseline the chosen configuration may be on B");
}

// bench measures one objective, and --method is seq-read's.
void check_bench_objective(const Config& config, const po::variables_map& vm) {
  if (config.measure.objectives.size() != 1) throw UsageError("bench measures one objective: give one --objective NAME");
  if (config.measure.objectives[0].engine != bench::Engine::hdparm_reads && !vm["method"].defaulted())
    throw UsageError("--method applies to --objective seq-read only");
}

void fill_config(Config& config, const po::variables_map& vm) {
  config.json = vm.count("json") > 0;
  if (vm.count("seed")) config.seed = parse_seed(vm["seed"].as<std::string>());
  config.sim_profile = optional_value<std::string>(vm, "sim-profile");
  if (vm.count("device")) {
    config.devices = vm["device"].as<std::vector<std::string>>();
    config.device = config.devices.front();
  }
  config.all_drives = vm.count("all") > 0;
  config.output.summary_path = optional_value<std::string>(vm, "summary");
  config.from_file = optional_value<std::string>(vm, "from");
  if (const auto format = optional_value<std::string>(vm, "format")) {
    config.format = probe::identify_format_from_name(*format);
    if (!config.format) throw UsageError("--format must be raw, hdparm-i or hdparm-I, not '" + *format + "'");
  }
  if (const auto n = optional_count(vm, "repeats", kRepeats)) config.measure.repeats = static_cast<int>(*n);
  if (const auto s = optional_seconds(vm, "duration", kDurationS)) config.measure.duration_s = *s;
  if (const auto method = optional_value<std::string>(vm, "method")) parse_bench_method(config, *method);
  parse_objective_options(config, vm);
  default_pooled_repeats(config, vm);
  config.measure.trial_timeout_s = optional_seconds(vm, "trial-timeout", kTimeoutS);
  config.measure.stall_timeout_s = optional_seconds(vm, "stall-timeout", kTimeoutS);
  if (vm.count("strategy")) config.measure.strategy = vm["strategy"].as<std::string>();
  if (vm.count("strategy") && config.measure.strategy.empty()) throw UsageError("--strategy: no strategy named");
  if (vm.count("only")) config.measure.only = parse_only(vm["only"].as<std::string>());
  if (const auto n = optional_count(vm, "max-trials", kMaxTrials)) config.measure.max_trials = static_cast<std::size_t>(*n);
  // An explicit --max-repeats below --repeats is a contradiction; the default follows --repeats
  // up (bench has no --max-repeats, and its --repeats 11 must not meet the tune's default 10).
  if (const auto n = optional_count(vm, "max-repeats", kRepeats)) config.measure.max_repeats = static_cast<int>(*n);
  if (vm.count("max-repeats") && !vm["max-repeats"].defaulted()) {
    if (config.measure.max_repeats < config.measure.repeats) throw UsageError("--max-repeats must be at least --repeats");
  } else {
    config.measure.max_repeats = std::max(config.measure.max_repeats, config.measure.repeats);
  }
  if (const auto n = optional_count(vm, "noise-repeats", kNoiseRepeats)) config.measure.noise_repeats = static_cast<int>(*n);
  config.measure.time_budget_s = optional_seconds(vm, "time-budget", kTimeBudgetS);
  if (const auto n = optional_count(vm, "seeds", kSeeds)) config.evaluate.seeds = static_cast<int>(*n);
  if (vm.count("seeds") && config.seed + static_cast<std::uint64_t>(config.evaluate.seeds) - 1 > 0xFFFFFFFFu)
    throw UsageError("--seed + --seeds - 1 must be at most 4294967295 (seeds are 32 bits)");
  if (vm.count("strategies")) config.evaluate.strategies = parse_strategies(vm["strategies"].as<std::string>());
  if (const auto n = optional_count(vm, "drives", kDrives)) config.evaluate.drives = static_cast<std::size_t>(*n);
  config.evaluate.drive_filter = optional_value<std::string>(vm, "drive-filter");
  if (vm.count("identify-dir")) config.evaluate.identify_dir = vm["identify-dir"].as<std::string>();
  config.output.report_path = optional_value<std::string>(vm, "report");
  config.output.boot_local_path = optional_value<std::string>(vm, "boot-local");
  config.output.html_path = optional_value<std::string>(vm, "html");
  config.output.hdparm_conf_path = optional_value<std::string>(vm, "hdparm-conf");
  config.output.udev_rules_path = optional_value<std::string>(vm, "udev-rules");
  config.output.tuned_profile_path = optional_value<std::string>(vm, "tuned-profile");
  config.journal_path = optional_value<std::string>(vm, "journal");
  config.fresh = vm.count("fresh") > 0;
  config.force = vm.count("force") > 0;
  config.allow_mounted = vm.count("allow-mounted") > 0;
  config.safe_only = vm.count("safe-only") > 0;
  refuse_unsafe_only(config);
  parse_tolerance(config, vm);
  config.measure.full_samples = vm.count("full-samples") > 0;
}

// apply REPORT [DEVICE]; verify REPORT... or --config DIR.
void fill_reports(Config& config, const po::variables_map& vm) {
  auto args = vm.count("argument") ? vm["argument"].as<std::vector<std::string>>() : std::vector<std::string>{};
  config.config_dir = optional_value<std::string>(vm, "config");
  config.install.root = optional_value<std::string>(vm, "root");
  config.install.exe = optional_value<std::string>(vm, "exe");
  if (vm.count("form")) config.install.forms = parse_install_forms(vm["form"].as<std::string>());
  if (config.command == Command::apply && config.config_dir) {
    if (!args.empty()) throw UsageError("apply takes REPORT [DEVICE] or --config DIR, not both");
    return;
  }
  if (config.command == Command::apply || config.command == Command::install || config.command == Command::uninstall ||
      config.command == Command::report) {
    const std::size_t most = config.command == Command::apply ? 2 : 1;
    if (args.empty() || args.size() > most)
      throw UsageError(std::string(config.command == Command::apply ? "apply takes REPORT and an optional DEVICE"
                                                                    : "install, uninstall and report take one REPORT"));
    if (config.command == Command::report && !config.output.html_path) throw UsageError("report needs --html FILE");
    config.reports = {args[0]};
    if (args.size() == 2) {
      config.device = args[1];
      config.device_named = true;
    }
    return;
  }
  if (config.config_dir && !args.empty()) throw UsageError("verify takes REPORT... or --config DIR, not both");
  if (!config.config_dir && args.empty()) throw UsageError("verify needs REPORT... or --config DIR");
  // An apply journal holds one drive's applies: read as another drive's evidence it would mislead.
  if (vm.count("journal") && (config.config_dir || args.size() > 1))
    throw UsageError("verify --journal FILE goes with one REPORT (an apply journal is one drive's)");
  config.reports = std::move(args);
}

// The options a multi-drive tune gives each worker itself (its DEVICE and per-drive outputs).
bool per_run_option(const std::string& key) {
  if (key == "device" || key == "all" || key == "summary") return true;
  return std::find(kPerDriveOutputs.begin(), kPerDriveOutputs.end(), key) != kPerDriveOutputs.end();
}

// Every other option's tokens as given ("--repeats", "3" or "--repeats=3"), in order.
std::vector<std::string> worker_options(const po::parsed_options& parsed) {
  std::vector<std::string> tokens;
  for (const auto& option : parsed.options)
    if (option.position_key < 0 && !per_run_option(option.string_key))
      tokens.insert(tokens.end(), option.original_tokens.begin(), option.original_tokens.end());
  return tokens;
}

void check_multi_drive(const Config& config) {
  if (config.output.summary_path && !multi_drive(config))
    throw UsageError("--summary goes with several drives (tune DEV DEV... or --all)");
}

// Refuses every option value holding a control character (a newline, tab or escape): its
// paths and names reach log lines and the commands disktune prints (the resume hint, restore),
// where one would forge a line or break the command. A device name keeps its own check
// (refuse_unwritable_name), which says what it is unsafe for; a report read by `report`,
// `install` or `uninstall` is named only through probe::one_line (an install of a report at a
// hostile path writes its mark comment so).
void refuse_control_characters(const po::variables_map& vm) {
  const auto has_control = [](const std::string& text) {
    return std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
  };
  for (const auto& [name, value] : vm) {
    if (name == "device" || name == "argument") continue;
    std::vector<std::string> texts;
    if (const auto* one = boost::any_cast<std::string>(&value.value())) texts.push_back(*one);
    if (const auto* many = boost::any_cast<std::vector<std::string>>(&value.value())) texts = *many;
    for (const auto& text : texts)
      if (has_control(text))
        throw UsageError("--" + name + " '" + probe::one_line(text) +
                         "': holds a control character (newline, tab or escape, shown as '?'): disktune prints it in "
                         "log lines and in commands to run, where it would break them");
  }
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
    Config config = help(usage_text());
    config.help_is_error = true;
    return config;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") return help(usage_text());
  if (args[0] == "--version") {
    Config config;
    config.command = Command::version;
    return config;
  }
  const auto command = command_from_name(args[0]);
  if (!command) throw UsageError("unknown command '" + args[0] + "' (identify, plan, bench, tune, restore, apply, verify, install, uninstall, evaluate, report)");
  const auto options = command_options(*command);
  po::options_description all;
  all.add(options).add_options()("device", po::value<std::vector<std::string>>());
  const bool takes_reports = *command == Command::apply || *command == Command::verify ||
                             *command == Command::install || *command == Command::uninstall || *command == Command::report;
  if (takes_reports) all.add_options()("argument", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  if (takes_reports)
    positional.add("argument", -1);
  else
    positional.add("device", *command == Command::tune ? -1 : 1);
  po::variables_map vm;
  po::parsed_options parsed(&all);
  try {
    // No guessing: "--max-trial" is a misspelling to name, not --max-trials taken silently.
    parsed = po::command_line_parser(std::vector<std::string>(args.begin() + 1, args.end()))
                 .options(all).positional(positional)
                 .style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing)
                 .run();
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    throw UsageError(e.what() + closest_option(e.get_option_name(), options));
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (vm.count("help")) {
    std::ostringstream text;
    text << command_usage(args[0]) << '\n' << options;
    return help(text.str());
  }
  refuse_control_characters(vm);
  Config config;
  config.command = *command;
  config.command_line.assign(argv, argv + argc);
  fill_config(config, vm);
  if (takes_reports) fill_reports(config, vm);
  if (config.from_file && vm.count("device")) throw UsageError("give either DEVICE or --from FILE, not both");
  if (config.format && !config.from_file) throw UsageError("--format goes with --from FILE");
  if (config.command == Command::bench) check_bench_objective(config, vm);
  if (config.command == Command::tune) config.worker_options = worker_options(parsed);
  check_multi_drive(config);
  return config;
}

}  // namespace disktune::tuner
