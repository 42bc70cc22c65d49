// SPDX-License-Identifier: GPL-2.0-or-later
// Command-line parsing: the contract's commands and options, and one-line usage errors.
#include "tuner/cli/cli.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace disktune;
using tuner::Command;

namespace {

tuner::Config parse(std::vector<const char*> args) {
  args.insert(args.begin(), "disktune");
  return tuner::parse_command_line(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST_CASE("tune defaults to the simulated seed drive and the default strategy", "[cli]") {
  const auto config = parse({"tune"});
  REQUIRE(config.command == Command::tune);
  REQUIRE(config.device == "sim:");
  REQUIRE(config.measure.strategy == "coordinate-descent");
  REQUIRE(config.measure.repeats == 3);
  REQUIRE_FALSE(config.measure.trial_timeout_s);
  REQUIRE_FALSE(config.measure.stall_timeout_s);
}

TEST_CASE("a pooled percentile's tune takes one first sample unless --repeats says otherwise", "[cli]") {
  CHECK(parse({"tune", "--objective", "rand-read-latency"}).measure.repeats == 1);
  CHECK(parse({"evaluate", "--objective", "rand-read-latency"}).measure.repeats == 1);
  CHECK(parse({"tune", "--objective", "rand-read-latency"}).measure.max_repeats == 10);
  CHECK(parse({"tune", "--objective", "rand-read-latency", "--repeats", "3"}).measure.repeats == 3);
  CHECK(parse({"bench", "--objective", "rand-read-latency"}).measure.repeats == 3);  // bench shows samples
  CHECK(parse({"tune", "--objective", "rand-read-latency,seq-read"}).measure.repeats == 3);  // a guard's fixed count
  CHECK(parse({"tune", "--objective", "rand-read-iops"}).measure.repeats == 3);  // a rate: the median of samples
  CHECK(parse({"tune", "--objective", "fio:/tmp/j.fio", "--metric", "p99"}).measure.repeats == 3);  // not pooled
}

TEST_CASE("tune takes the contract's options", "[cli]") {
  const auto config = parse({"tune", "/dev/loop0", "--strategy", "exhaustive", "--repeats", "5",
                             "--trial-timeout", "7.5", "--stall-timeout", "2.5", "--only", "read_ahead_kb,scheduler", "--seed", "42",
                             "--report", "r.json", "--boot-local", "b.sh"});
  REQUIRE(config.device == "/dev/loop0");
  REQUIRE(config.measure.strategy == "exhaustive");
  REQUIRE(config.measure.repeats == 5);
  REQUIRE(*config.measure.trial_timeout_s == 7.5);
  REQUIRE(*config.measure.stall_timeout_s == 2.5);
  REQUIRE(*config.measure.only == std::vector{probe::SettingId::read_ahead_kb, probe::SettingId::scheduler});
  REQUIRE(config.seed == 42);
  REQUIRE(*config.output.report_path == "r.json");
  REQUIRE(*config.output.boot_local_path == "b.sh");
}

TEST_CASE("identify takes --from and --format", "[cli]") {
  const auto config = parse({"identify", "--from", "x.txt", "--format", "hdparm-I", "--json"});
  REQUIRE(config.command == Command::identify);
  REQUIRE(*config.from_file == "x.txt");
  REQUIRE(*config.format == probe::IdentifyFormat::hdparm_I);
  REQUIRE(config.json);
}

TEST_CASE("help on a command (--help) and --version are answered, not errors", "[cli]") {
  REQUIRE(parse({"tune", "--help"}).command == Command::help);
  REQUIRE(parse({"tune", "--help"}).help_text.find("--trial-timeout") != std::string::npos);
  // A command's help opens with its own usage, not every command's.
  const auto tune_help = parse({"tune", "--help"}).help_text;
  CHECK(tune_help.starts_with("usage: disktune tune     [DEVICE... | --all]"));
  CHECK(tune_help.find("evaluate") == std::string::npos);
  CHECK(parse({"restore", "--help"}).help_text.starts_with("usage: disktune restore  [DEVICE] [--journal FILE] [--force]\n"
                                                            "           [--seed N] [--sim-profile FILE]\n\n"));
  CHECK(tune_help.find("[--seed N] [--sim-profile FILE]") != std::string::npos);  // every command takes them
  // evaluate's own usage names --seed (its first seed): not twice.
  const auto evaluate_help = parse({"evaluate", "--help"}).help_text;
  CHECK(evaluate_help.find("[--seed FIRST]") != std::string::npos);
  CHECK(evaluate_help.find("[--seed N]") == std::string::npos);
  CHECK(evaluate_help.find("[--sim-profile FILE]") != std::string::npos);
  // report, install and uninstall open no drive: no --seed listed or taken.
  for (const char* files_only : {"report", "install", "uninstall"}) {
    CAPTURE(files_only);
    const auto help = parse({files_only, "--help"}).help_text;
    CHECK(help.find("--seed") == std::string::npos);
    CHECK(help.find("--sim-profile") == std::string::npos);
    CHECK_THROWS_WITH(parse({files_only, "r.json", "--seed", "3"}), Catch::Contains("--seed"));
  }
  REQUIRE(parse({"--version"}).command == Command::version);
  REQUIRE(parse({}).command == Command::help);
}

TEST_CASE("bad arguments are usage errors with a reason", "[cli]") {
  REQUIRE_THROWS_WITH(parse({"frobnicate"}), Catch::Contains("unknown command 'frobnicate'"));
  REQUIRE_THROWS_WITH(parse({"tune", "--repeats", "0"}), Catch::Contains("--repeats"));
  REQUIRE_THROWS_WITH(parse({"tune", "--repeats", "many"}), Catch::Contains("repeats"));
  REQUIRE_THROWS_WITH(parse({"tune", "--only", "dma"}), Catch::Contains("unknown setting 'dma'"));
  REQUIRE_THROWS_WITH(parse({"tune", "--only", "readahed"}),
                      Catch::Contains("unknown setting 'readahed': did you mean 'readahead'? (the settings: multcount, ") &&
                          Catch::Contains("read_ahead_kb") && Catch::Contains("scheduler"));
  REQUIRE_THROWS_WITH(parse({"tune", "--bogus"}), Catch::Contains("bogus"));
  REQUIRE_THROWS_WITH(parse({"tune", "--max-trail", "3"}), Catch::Contains("(did you mean --max-trials?)"));
  // A prefix is no abbreviation: --max-trial must not be taken as --max-trials silently.
  REQUIRE_THROWS_WITH(parse({"tune", "--max-trial", "3"}), Catch::Contains("(did you mean --max-trials?)"));
  REQUIRE_THROWS_WITH(parse({"tune", "--only", "schedular"}), Catch::Contains("did you mean 'scheduler'?"));
  // A short word three edits from a name is no misspelling of it ("foo" must not suggest "apm").
  REQUIRE_THROWS_WITH(parse({"tune", "--only", "foo"}), !Catch::Contains("did you mean"));
  REQUIRE_THROWS_WITH(parse({"tune", "--objectve", "seq-read"}), Catch::Contains("(did you mean --objective?)"));
  REQUIRE_THROWS_WITH(parse({"identify", "--from", "x", "--format", "xml"}), Catch::Contains("--format"));
  REQUIRE_THROWS_WITH(parse({"identify", "/dev/sda", "--from", "x"}), Catch::Contains("either"));
  REQUIRE_THROWS_WITH(parse({"tune", "--trial-timeout", "-1"}), Catch::Contains("trial-timeout"));
  REQUIRE_THROWS_WITH(parse({"tune", "--stall-timeout", "0"}), Catch::Contains("stall-timeout"));
  REQUIRE_THROWS_AS(parse({"bench", "a", "b"}), tuner::UsageError);  // tune takes several drives
  REQUIRE_THROWS_WITH(parse({"tune", "a", "--summary", "s.json"}), Catch::Contains("several drives"));
}

TEST_CASE("tune DEV DEV... is a multi-drive tune whose workers get every other option as given", "[cli]") {
  const auto one = parse({"tune", "/dev/loop0", "--repeats", "2"});
  REQUIRE_FALSE(tuner::multi_drive(one));
  REQUIRE(one.device == "/dev/loop0");
  const auto two = parse({"tune", "/dev/loop0", "--repeats", "2", "/dev/loop1", "--report", "d/{drive}.json",
                          "--only=read_ahead_kb", "--journal", "j", "--summary", "s.json", "--allow-mounted"});
  REQUIRE(tuner::multi_drive(two));
  REQUIRE(two.devices == std::vector<std::string>{"/dev/loop0", "/dev/loop1"});
  REQUIRE(two.output.summary_path == "s.json");
  REQUIRE(two.worker_options ==
          std::vector<std::string>{"--repeats", "2", "--only=read_ahead_kb", "--allow-mounted"});
  REQUIRE(tuner::multi_drive(parse({"tune", "--all"})));
}

TEST_CASE("bench --method picks the measurements, both by default", "[cli]") {
  const auto both = parse({"bench", "/dev/loop0"});
  REQUIRE(both.bench.cached);
  REQUIRE(both.bench.buffered);
  const auto buffered = parse({"bench", "/dev/loop0", "--method", "buffered", "--duration", "2"});
  REQUIRE_FALSE(buffered.bench.cached);
  REQUIRE(buffered.bench.buffered);
  REQUIRE(buffered.measure.duration_s == 2.0);
  const auto cached = parse({"bench", "--method", "cached"});
  REQUIRE(cached.bench.cached);
  REQUIRE_FALSE(cached.bench.buffered);
  REQUIRE_THROWS_WITH(parse({"bench", "--method", "direct"}),
                      Catch::Contains("--method must be cached, buffered or both, not 'direct'"));
  REQUIRE_THROWS_WITH(parse({"tune", "--method", "buffered"}), Catch::Contains("method"));
}

TEST_CASE("evaluate --strategies names registered strategies; exhaustive runs only when named", "[cli]") {
  REQUIRE(parse({"evaluate"}).evaluate.strategies.empty());  // every strategy but exhaustive
  const auto config = parse({"evaluate", "--strategies", "coordinate-descent", "--seed", "6", "--seeds", "10"});
  REQUIRE(config.evaluate.strategies == std::vector<std::string>{"coordinate-descent"});
  REQUIRE(config.seed == 6);
  REQUIRE(config.evaluate.seeds == 10);
  REQUIRE(parse({"evaluate", "--strategies", "exhaustive,racing"}).evaluate.strategies ==
          std::vector<std::string>{"exhaustive", "racing"});
  REQUIRE_THROWS_WITH(parse({"evaluate", "--strategies", "coordinate-descent,annealing"}),
                      Catch::Contains("unknown strategy 'annealing'"));
  REQUIRE_THROWS_WITH(parse({"evaluate", "--strategies", ""}), Catch::Contains("--strategies"));
}

TEST_CASE("numeric options outside their range are usage errors that state the range", "[cli]") {
  const auto [command, option, value, range] = GENERATE(table<const char*, const char*, const char*, const char*>({
      {"tune", "--duration", "inf", "from 0.01 to 3600"},
      {"tune", "--duration", "nan", "from 0.01 to 3600"},
      {"tune", "--duration", "1e300", "from 0.01 to 3600"},
      {"bench", "--duration", "-3", "from 0.01 to 3600"},
      {"tune", "--trial-timeout", "1e10", "from 0.1 to 86400"},
      {"tune", "--stall-timeout", "inf", "from 0.1 to 86400"},
      {"tune", "--time-budget", "1e99", "from 0.1 to 2592000"},
      {"tune", "--max-trials", "-1", "from 0 to 1000000"},
      {"tune", "--max-trials", "2.5", "from 0 to 1000000"},
      {"tune", "--repeats", "1e9", "from 1 to 1000"},
      {"tune", "--max-repeats", "100000", "from 1 to 1000"},
      {"evaluate", "--seeds", "-1", "from 1 to 10000"},
      {"evaluate", "--drives", "-1", "from 1 to 100000"},
  }));
  CAPTURE(command, option, value);
  REQUIRE_THROWS_WITH(parse({command, option, value}), Catch::Contains(option) && Catch::Contains(range) &&
                                                           Catch::Contains(std::string("'") + value + "'"));
}

TEST_CASE("numeric options at the ends of their range are accepted", "[cli]") {
  REQUIRE(parse({"tune", "--duration", "3600"}).measure.duration_s == 3600);
  REQUIRE(parse({"tune", "--duration", "0.01"}).measure.duration_s == 0.01);
  REQUIRE(*parse({"tune", "--max-trials", "1000000"}).measure.max_trials == 1000000);
  REQUIRE(*parse({"tune", "--max-trials", "0"}).measure.max_trials == 0);  // the baseline only
  REQUIRE(*parse({"tune", "--trial-timeout", "86400"}).measure.trial_timeout_s == 86400);
  REQUIRE(parse({"evaluate", "--seed", "4294967291", "--seeds", "5"}).evaluate.seeds == 5);
  REQUIRE_THROWS_WITH(parse({"evaluate", "--seed", "4294967292", "--seeds", "5"}), Catch::Contains("4294967295"));
}

TEST_CASE("an --only naming an ATA knob with --allow-mounted is a usage error with the reason", "[cli]") {
  REQUIRE_THROWS_WITH(parse({"tune", "/dev/loop0", "--allow-mounted", "--only", "read_ahead_kb,multcount"}),
                      Catch::Contains("--only multcount with --allow-mounted: refused on a disk in use") &&
                          Catch::Contains("EIO"));
  REQUIRE_THROWS_AS(parse({"tune", "--allow-mounted", "--only", "xfermode"}), tuner::UsageError);
  const auto queue = parse({"tune", "/dev/loop0", "--allow-mounted", "--only", "read_ahead_kb,scheduler"});
  REQUIRE(queue.allow_mounted);
  REQUIRE(parse({"tune", "--only", "multcount"}).measure.only);  // not in use: allowed
  REQUIRE(parse({"plan", "/dev/loop0", "--allow-mounted"}).allow_mounted);
}

TEST_CASE("repeats: a --repeats above the default --max-repeats raises it, only an explicit smaller --max-repeats is refused", "[cli]") {
  // bench has no --max-repeats: its --repeats 11 was refused against the tune's default of 10.
  const auto bench = parse({"bench", "--repeats", "11"});
  CHECK(bench.measure.repeats == 11);
  CHECK(bench.measure.max_repeats == 11);
  CHECK(parse({"tune", "--repeats", "12"}).measure.max_repeats == 12);
  CHECK(parse({"tune", "--repeats", "4"}).measure.max_repeats == 10);
  CHECK(parse({"tune", "--repeats", "5", "--max-repeats", "5"}).measure.max_repeats == 5);
  REQUIRE_THROWS_WITH(parse({"tune", "--repeats", "5", "--max-repeats", "4"}),
                      Catch::Contains("--max-repeats must be at least --repeats"));
}
