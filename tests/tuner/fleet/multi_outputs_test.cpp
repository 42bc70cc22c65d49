// SPDX-License-Identifier: GPL-2.0-or-later
// Per-drive outputs of a multi-drive tune ({drive}, a directory, one file refused) and the machine exit code.
#include "tuner/fleet/multi_outputs.hpp"
#include "tuner/cli/cli_options.hpp"
#include "tuner/fleet/multi_summary.hpp"

#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

using namespace disktune::tuner;

TEST_CASE("drive_outputs replaces {drive}, names DIR/KEY files in a directory and refuses one file for several", "[tuner]") {
  const disktune::testing::TempDir tmp("outputs");
  FleetOptions config;
  config.output.summary_path = tmp.path() + "/s.json";
  config.output.report_path = tmp.path() + "/r-{drive}.json";
  config.output.udev_rules_path = tmp.path();
  const auto outputs = drive_outputs(config, "loop3");
  REQUIRE(outputs.report_path == tmp.path() + "/r-loop3.json");
  REQUIRE(outputs.log_path == tmp.path() + "/loop3.log");
  REQUIRE(outputs.options == std::vector<std::string>{"--report", tmp.path() + "/r-loop3.json", "--udev-rules",
                                                      tmp.path() + "/69-disktune-loop3.rules"});
  config.output.report_path.reset();
  REQUIRE(drive_outputs(config, "sda").report_path == tmp.path() + "/sda.report.json");
  config.output.boot_local_path = tmp.path() + "/boot.local";
  REQUIRE_THROWS_WITH(drive_outputs(config, "sda"), Catch::Contains("one file for several drives"));
  config.output.boot_local_path.emplace(1, '-');  // not = "-": GCC 12 -O2 flags a false -Wrestrict there
  REQUIRE_THROWS_WITH(drive_outputs(config, "sda"), Catch::Contains("(stdout) takes one drive"));
}

TEST_CASE("drive_key names a device by its kernel name and a simulated drive by its capture", "[tuner]") {
  REQUIRE(drive_key("sim:") == "sim");
  REQUIRE(drive_key("sim:/x/seed.hex") == "sim-seed");
  REQUIRE(drive_key("/nonexistent/sdq") == "sdq");
}

TEST_CASE("machine_exit_code is 0 only when every drive exited 0, else the worst drive's", "[tuner]") {
  auto runs = [](std::initializer_list<int> codes) {
    std::vector<DriveRun> list;
    for (const int code : codes) {
      DriveRun run;
      run.exit_code = code;
      list.push_back(run);
    }
    return list;
  };
  REQUIRE(machine_exit_code(runs({0, 0})) == kExitOk);
  REQUIRE(machine_exit_code(runs({0, 6})) == kExitTooNoisy);
  REQUIRE(machine_exit_code(runs({6, 1, 0})) == kExitPartial);
  REQUIRE(machine_exit_code(runs({3, 5, 2})) == kExitWedged);
  REQUIRE(machine_exit_code(runs({5, 4, 0})) == kExitRestoreFailed);
  REQUIRE(machine_exit_code(runs({0, 127})) == kExitDevice);
}

TEST_CASE("every {drive} of a per-drive path is replaced; --html and --journal are per drive", "[tuner]") {
  const disktune::testing::TempDir tmp("multi-outputs-all");
  FleetOptions config;
  config.output.summary_path = tmp.path() + "/s.json";
  config.output.report_path = tmp.path() + "/{drive}/{drive}.json";
  config.output.html_path = tmp.path() + "/{drive}.html";
  config.journal_path = tmp.path();
  const auto outputs = drive_outputs(config, "loop2");
  REQUIRE(outputs.report_path == tmp.path() + "/loop2/loop2.json");
  REQUIRE(outputs.options == std::vector<std::string>{"--report", tmp.path() + "/loop2/loop2.json", "--html",
                                                      tmp.path() + "/loop2.html", "--journal",
                                                      tmp.path() + "/loop2.journal"});
  REQUIRE(outputs.journal_path == tmp.path() + "/loop2.journal");  // what a killed worker's restore needs
  config.output.html_path = tmp.path() + "/one.html";
  REQUIRE_THROWS_WITH(drive_outputs(config, "loop2"), Catch::Contains("--html " + tmp.path() + "/one.html names one file"));
}

TEST_CASE("every tune option that writes a file is a per-drive output", "[tuner][cli]") {
  // An output option left off kPerDriveOutputs would reach every worker as given: several
  // drives writing one file (the adversary's --html).
  const auto tune_options = command_options(Command::tune);  // options() refers into it
  for (const auto& option : tune_options.options()) {
    const auto name = option->long_name();
    if (option->description().rfind("write ", 0) != 0 || option->description().find(" here") == std::string::npos)
      continue;
    INFO("--" << name << ": " << option->description());
    REQUIRE(std::find(kPerDriveOutputs.begin(), kPerDriveOutputs.end(), name) != kPerDriveOutputs.end());
  }
  REQUIRE(std::find(kPerDriveOutputs.begin(), kPerDriveOutputs.end(), "html") != kPerDriveOutputs.end());
}

TEST_CASE("the machine summary shows no winner for a drive whose run stopped or was too noisy", "[tuner]") {
  const disktune::testing::TempDir tmp("multi-summary");
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(tmp.path() + "/" + name) << text;
    return tmp.path() + "/" + name;
  };
  const std::string winner = R"("winner": {"keep_baseline": false, "changes": {"read_ahead_kb": 512}, "speedup": 1.5})";
  MachineRun machine;
  DriveRun done, stopped, noisy;
  done.key = "loop0", done.exit_code = 0, done.report_path = write("a.json", "{\"completed\": true, " + winner + "}");
  stopped.key = "loop1", stopped.exit_code = 1,
  stopped.report_path = write("b.json", R"({"completed": false, "winner": {"keep_baseline": true, "speedup": 1.0}})");
  noisy.key = "loop2", noisy.exit_code = 6,
  noisy.report_path = write("c.json", "{\"completed\": true, \"too_noisy\": true, " + winner + "}");
  machine.runs = {done, stopped, noisy};
  const auto table = summary_table(machine);
  INFO(table);
  REQUIRE(table.find("read_ahead_kb=512") != std::string::npos);
  REQUIRE(table.find("1.50x") != std::string::npos);
  REQUIRE(table.find("baseline") == std::string::npos);  // an interrupted drive read like "keep the baseline"
  REQUIRE(table.find("1.000") == std::string::npos);
  const auto json = summary_json(machine);
  REQUIRE(json.at("drives").as_array().at(1).at("winner").is_null());
  REQUIRE(json.at("drives").as_array().at(2).at("winner").is_null());
}
