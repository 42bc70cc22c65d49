// SPDX-License-Identifier: GPL-2.0-or-later
// check_command_inputs: every input file a command names is checked before a device is opened.
#include "tuner/cli/command_options.hpp"

#include "bench/objective.hpp"
#include "tuner/run_error.hpp"

#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <string>

using namespace disktune;

TEST_CASE("a fio:FILE job file that is missing, a directory or unreadable is bad input naming it", "[tuner]") {
  const testing::TempDir temp("input");
  const std::string& dir = temp.path();
  const std::string job = dir + "/a,b.fio";
  std::ofstream(job) << "[j]\nrw=read\n";
  // /proc files look regular: /proc/kmsg blocks (or consumes the kernel log), /proc/self/mem
  // gives EIO even to root. None is read.
  const auto [name, reason] = GENERATE(table<std::string, std::string>({
      {"/missing.fio", "No such file or directory"},
      {"", "is a directory, not a regular file"},
      {"/proc/self/mem", "a /proc file is no job file"},
      {"/proc/kmsg", "a /proc file is no job file"},
  }));
  const std::string path = name.starts_with("/proc") ? name : dir + name;
  tuner::Config config;
  config.command = tuner::Command::bench;
  config.measure.objectives = bench::parse_objectives("fio:" + path, "").value();
  try {
    tuner::check_command_inputs(config);
    FAIL("no refusal of " << path);
  } catch (const tuner::RunError& error) {
    CHECK(error.code() == tuner::kExitUsage);
    CHECK_THAT(error.what(), Catch::StartsWith("--objective fio:" + path + ": " + reason));
  }
  config.measure.objectives = bench::parse_objectives("fio:" + job + ",seq-read", "").value();
  CHECK_NOTHROW(tuner::check_command_inputs(config));
}

TEST_CASE("a --journal DIR passes the input check of a multi-drive tune (each worker checks its own)", "[tuner]") {
  const testing::TempDir temp("journal-dir");
  tuner::Config config;
  config.command = tuner::Command::tune;
  config.journal_path = temp.path();
  REQUIRE_THROWS_WITH(tuner::check_command_inputs(config), Catch::Contains("is a directory"));  // one drive
  config.devices = {"/dev/loop0", "/dev/loop1"};
  REQUIRE_NOTHROW(tuner::check_command_inputs(config));
}

TEST_CASE("each command is handed the options it was given, and --from is the device a sim:FILE", "[tuner][cli]") {
  tuner::Config config;
  config.from_file = "/captures/drive.txt";
  config.seed = 7;
  config.sim_profile = "/profiles/p.json";
  config.allow_mounted = true;
  config.journal_path = "/tmp/j";
  config.force = true;
  config.reports = {"/r/a.json", "/r/b.json"};
  config.device_named = true;
  const auto device = tuner::device_request(config);
  CHECK(device.spec == "sim:/captures/drive.txt");
  CHECK(device.seed == 7);
  CHECK(device.sim_profile == config.sim_profile);
  CHECK(device.allow_mounted);
  const auto restore = tuner::restore_options(config);
  CHECK(restore.journal.path == config.journal_path);
  CHECK(restore.journal.force);
  CHECK_FALSE(restore.journal.fresh);
  const auto apply = tuner::apply_options(config);
  CHECK(apply.report == "/r/a.json");
  CHECK(apply.device_named);
  CHECK(apply.journal_path == config.journal_path);
  CHECK(tuner::verify_options(config).reports == config.reports);
  config.install.root = "/mnt/target";
  const auto install = tuner::install_options(config);
  CHECK(install.report == "/r/a.json");
  CHECK(install.root == config.install.root);
  config.measure.only = std::vector<probe::SettingId>{probe::SettingId::readahead};
  config.safe_only = true;
  const auto bounds = tuner::space_bounds(config);
  CHECK(bounds.only == config.measure.only);
  CHECK(bounds.safe_only);
  CHECK(bounds.data_in_use);
  const auto evaluate = tuner::evaluate_request(config);
  CHECK(evaluate.first_seed == 7);
  CHECK(evaluate.measure.only == config.measure.only);
}
