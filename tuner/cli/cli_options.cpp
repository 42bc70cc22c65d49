// SPDX-License-Identifier: GPL-2.0-or-later
// The options tables of every subcommand (cli_options.hpp). Grouped by what they shape, in
// the order --help lists them.
#include "tuner/cli/cli_options.hpp"

#include "strategies/registry.hpp"

#include <optional>
#include <string>

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
    "  tune     [DEVICE... | --all] [--strategy NAME] [--repeats N] [--max-repeats N] [--duration S] [--full-samples]\n"
    "           [--trial-timeout S] [--stall-timeout S] [--only SETTING,...] [--max-trials N]\n"
    "           [--time-budget S] [--report FILE] [--html FILE] [--boot-local FILE]\n"
    "           [--hdparm-conf FILE] [--udev-rules FILE] [--tuned-profile FILE] [--journal FILE] [--fresh] [--force]\n"
    "           [--safe-only] [--allow-mounted] [--noise-repeats N]\n"
    "           [--objective NAME[,NAME]] [--metric M] [--tolerance PCT] [--summary FILE]\n"
    "  restore  [DEVICE] [--journal FILE] [--force]\n"
    "  apply    REPORT [DEVICE] | --config DIR [--journal FILE] [--allow-mounted]\n"
    "  verify   REPORT... | --config DIR [--json] [--journal FILE]\n"
    "  install  REPORT [--root DIR] [--exe PATH] [--form udev,systemd,hdparm-conf,tuned]\n"
    "  uninstall REPORT [--root DIR]\n"
    "  report   REPORT --html FILE\n"
    "  evaluate [--seeds N] [--seed FIRST] [--strategies NAME,...] [--drives N] [--drive-filter TEXT]\n"
    "           [--identify-dir DIR] [--only SETTING,...] [--duration S] [--repeats N] [--max-repeats N]\n"
    "           [--json] [--objective NAME] [--metric M]\n"
    "Every command but report, install and uninstall also takes --seed N and --sim-profile FILE for simulated drives.\n"
    "DEVICE: a whole-disk block device (/dev/sda, /dev/loop0), sim: (the simulated seed drive,\n"
    "the default) or sim:FILE (a simulated drive built from an identify capture). tune takes\n"
    "several: one worker per drive; --report and the other outputs then name a directory or\n"
    "hold {drive} (docs/multi-drive.md).\n"
    "Run 'disktune COMMAND --help' for a command's options.\n";

// "search strategy: NAME (description); ..." from the registry, for --help.
std::string strategy_list() {
  std::string list = "search strategy:";
  for (const auto& name : strategies::strategy_names())
    if (auto strategy = strategies::make_strategy(name)) list += "\n  " + name + ": " + std::string((*strategy)->description());
  return list;
}

// --objective's help: every built-in objective and what it measures; a guard (A,B) only
// where --tolerance exists (tune).
std::string objective_help(bool guard) {
  return std::string("what a trial is judged by: seq-read (hdparm -t buffered sequential reads, MB/s; the default), "
                     "seq-read-direct (fio, 1 MiB O_DIRECT reads at queue depth 16, MB/s), rand-read-iops (fio, 4 KiB "
                     "random reads at queue depth 32, IOPS), rand-read-latency (fio, 4 KiB random reads at queue depth 1, "
                     "p99 completion latency in us, lower is better) or fio:FILE (your fio job file, read-only)") +
         (guard ? "; A,B optimises A and keeps B within --tolerance of the baseline" : "");
}

// --help, and for a command that can open a SIMULATED drive (report, install and uninstall
// read files only: their --seed was listed and ignored) its --seed and --sim-profile.
po::options_description common_options(Command command) {
  po::options_description options("Options");
  options.add_options()("help,h", "show this help");
  if (command == Command::report || command == Command::install || command == Command::uninstall) return options;
  options.add_options()
      ("seed", po::value<std::string>()->default_value("1"), "noise seed of a simulated drive (0-4294967295)")
      ("sim-profile", po::value<std::string>(), "JSON behaviour profile of a simulated drive");
  return options;
}

// "what to measure: seq-read (default), seq-read-direct, ..., fio:FILE" for --help.
// --objective and --metric: one definition for every command that measures.
void add_objective_options(po::options_description& options, bool guard) {
  options.add_options()
      ("objective", po::value<std::string>(), objective_help(guard).c_str())
      ("metric", po::value<std::string>(), "the figure of a fio:FILE objective: bw, iops, p99 or p999 (default: bw for a sequential job, iops for a random one)");
}

// --json, and the report, configuration and install locations of apply/verify/install.
void add_report_options(po::options_description& options, Command command) {
  if (command == Command::identify || command == Command::plan || command == Command::bench ||
      command == Command::evaluate || command == Command::verify)
    options.add_options()("json", "print JSON instead of text");
  if (command == Command::verify || command == Command::apply)
    options.add_options()("config", po::value<std::string>(), "every report (*.json) in this directory");
  if (command == Command::install || command == Command::uninstall)
    options.add_options()("root", po::value<std::string>(), "install under this directory instead of / (packaging, tests)");
  if (command == Command::install) {
    options.add_options()
        ("exe", po::value<std::string>(), "the disktune binary the boot unit and the resume hook run (default /usr/sbin/disktune)")
        ("form", po::value<std::string>(), "what to install, comma-separated: udev (the rule), systemd (the boot unit and the "
                                           "resume hook), hdparm-conf (a block in /etc/hdparm.conf), tuned (the TuneD profile "
                                           "disktune-KEY); default udev,systemd");
  }
  if (command == Command::verify)
    options.add_options()("journal", po::value<std::string>(),
                          "the apply journal to read a drift's cause from, as given to apply (default: "
                          "/var/lib/disktune/<drive>.apply.journal); one REPORT only");
  if (command == Command::apply) {
    options.add_options()
        ("journal", po::value<std::string>(), "apply journal (default: /var/lib/disktune/<drive>.apply.journal)")
        ("allow-mounted", "apply to a disk even if it is mounted, swapped on or held by md/dm/LVM");
  }
}

// Where identify data comes from (identify, plan), and the safety limits of a search (plan, tune).
void add_probe_options(po::options_description& options, Command command) {
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
}

// How a configuration is measured and judged (bench, tune, evaluate).
void add_sampling_options(po::options_description& options, Command command) {
  if (command == Command::bench || command == Command::tune) {
    options.add_options()
        ("repeats", po::value<std::string>()->default_value("3"),
         command == Command::tune ? "first samples per configuration (1-1000; a tune of rand-read-latency alone takes 1 unless given: its samples' completions are pooled)"
                                  : "samples per configuration (1-1000)")
        ("duration", po::value<std::string>()->default_value("3"), "seconds per sample: buffered reads (hdparm -t: 3) or one fio run (0.01-3600)")
        ("full-samples", "every sample runs --duration s (default on a real device: a buffered-read sample, and a fio sample of seq-read-direct or rand-read-iops, ends once its rate is steady, its figure projected to --duration)");
  }
  if (command == Command::bench) {
    add_objective_options(options, false);
    options.add_options()
        ("method", po::value<std::string>()->default_value("both"),
         "seq-read: cached (hdparm -T), buffered (hdparm -t) or both");
  }
  if (command == Command::tune || command == Command::evaluate) add_objective_options(options, command == Command::tune);
  if (command == Command::tune) {
    options.add_options()
        ("tolerance", po::value<std::string>()->default_value("5"), "--objective A,B: percent by which the chosen configuration may be worse than the baseline on B (0-100)");
  }
  if (command == Command::tune || command == Command::evaluate) {
    options.add_options()
        ("max-repeats", po::value<std::string>()->default_value("10"), "adaptive sampling: at most this many samples per configuration (--repeats to 1000)");
  }
}

void add_evaluate_options(po::options_description& options) {
  options.add_options()
      ("seeds", po::value<std::string>()->default_value("5"), "noise seeds per simulated drive: --seed, --seed + 1, ... (1-10000)")
      ("strategies", po::value<std::string>(), "comma-separated strategies to evaluate (default: all but exhaustive, which runs only when named)")
      ("drives", po::value<std::string>(), "only the first N tunable drives (file name order; 1-100000)")
      ("drive-filter", po::value<std::string>(), "only identify files whose name contains TEXT")
      ("only", po::value<std::string>(), "comma-separated settings to search (others keep their value)")
      ("identify-dir", po::value<std::string>()->default_value("tests/data/identify"), "identify captures to simulate drives from")
      ("duration", po::value<std::string>()->default_value("0.1"), "virtual seconds per buffered-read sample (0.01-3600)")
      ("repeats", po::value<std::string>()->default_value("3"), "first samples per configuration (1-1000; rand-read-latency: 1 unless given, its completions pooled)");
}

// The search's limits and the files a tune writes.
void add_tune_options(po::options_description& options) {
  options.add_options()
      ("time-budget", po::value<std::string>(), "stop the search after this many seconds of measurement (0.1-2592000)")
      ("strategy", po::value<std::string>()->default_value(strategies::default_strategy_name()),
       strategy_list().c_str())
      ("trial-timeout", po::value<std::string>(), "seconds before a trial is killed: hung without progress, slow with it (default: from the baseline's rate on a real device, 10 s and more on a simulated one; 0.1-86400)")
      ("stall-timeout", po::value<std::string>(), "seconds without a finished read before a trial counts as hung (default: 30 s for the baseline's first trial, then 20 x one chunk's time at the baseline rate, 5 s at least, the trial timeout at most; 0.1-86400)")
      ("only", po::value<std::string>(), "comma-separated settings to search (others keep their value)")
      ("max-trials", po::value<std::string>(), "stop after this many trials (0-1000000; 0: measure the baseline and its noise only)")
      ("noise-repeats", po::value<std::string>(), "baseline trials measured after the first for the noise (default 2; 1-10)")
      ("report", po::value<std::string>(), "write the JSON report here (- = stdout)")
      ("boot-local", po::value<std::string>(), "write the boot.local snippet here")
      ("hdparm-conf", po::value<std::string>(), "write an /etc/hdparm.conf block here")
      ("udev-rules", po::value<std::string>(), "write a udev rules file here")
      ("tuned-profile", po::value<std::string>(), "write a TuneD profile fragment here (Red Hat family)")
      ("fresh", "set the journal aside (renamed, whatever its state) and start over")
      ("all", "tune every whole disk not mounted, swapped on or stacked, and every DEVICE named (docs/multi-drive.md)")
      ("summary", po::value<std::string>(), "several drives: write the machine summary (JSON) here "
                                            "(default /var/lib/disktune/summary.json)");
}

}  // namespace

const char* usage_text() { return kUsage; }

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
  if (name == "report") return Command::report;
  return std::nullopt;
}

po::options_description command_options(Command command) {
  auto options = common_options(command);
  add_report_options(options, command);
  add_probe_options(options, command);
  add_sampling_options(options, command);
  if (command == Command::evaluate) add_evaluate_options(options);
  if (command == Command::tune) add_tune_options(options);
  if (command == Command::tune || command == Command::report)
    options.add_options()("html", po::value<std::string>(), "write the HTML report here: one page with charts, for a person (- = stdout)");
  if (command == Command::tune || command == Command::restore) {
    options.add_options()
        ("journal", po::value<std::string>(), "journal file (default: /var/lib/disktune/<drive>.journal)")
        ("force", "use a journal recorded under another device name or kernel (another drive's is always refused)");
  }
  return options;
}

}  // namespace disktune::tuner
