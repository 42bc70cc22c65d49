// SPDX-License-Identifier: GPL-2.0-or-later
// Per-drive outputs of a multi-drive tune ({drive}, a directory, one file refused) and the machine exit code.
#include "tuner/multi_outputs.hpp"
#include "tuner/multi_summary.hpp"

#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

using namespace disktune::tuner;

TEST_CASE("drive_outputs replaces {drive}, names DIR/KEY files in a directory and refuses one file for several", "[tuner]") {
  const disktune::testing::TempDir tmp("outputs");
  Config config;
  config.command = Command::tune;
  config.summary_path = tmp.path() + "/s.json";
  config.report_path = tmp.path() + "/r-{drive}.json";
  config.udev_rules_path = tmp.path();
  const auto outputs = drive_outputs(config, "loop3");
  REQUIRE(outputs.report_path == tmp.path() + "/r-loop3.json");
  REQUIRE(outputs.log_path == tmp.path() + "/loop3.log");
  REQUIRE(outputs.options == std::vector<std::string>{"--report", tmp.path() + "/r-loop3.json", "--udev-rules",
                                                      tmp.path() + "/60-disktune-loop3.rules"});
  config.report_path.reset();
  REQUIRE(drive_outputs(config, "sda").report_path == tmp.path() + "/sda.report.json");
  config.boot_local_path = tmp.path() + "/boot.local";
  REQUIRE_THROWS_WITH(drive_outputs(config, "sda"), Catch::Contains("one file for several drives"));
  config.boot_local_path.emplace(1, '-');  // not = "-": GCC 12 -O2 flags a false -Wrestrict there
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
