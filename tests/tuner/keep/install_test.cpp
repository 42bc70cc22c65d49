// SPDX-License-Identifier: GPL-2.0-or-later
// install and uninstall under a --root in a temporary directory, their lock on a fake host:
// no root privilege, no device (install reads only the report). The script tests check the same against hostile roots.
#include "tuner/keep/install.hpp"

#include "results/saved_report.hpp"
#include "tests/support/fake_host.hpp"
#include "tests/support/temp_dir.hpp"
#include "tuner/host/input_file.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace disktune;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

// The golden seed report made a loop device's over `backing`, its winner read_ahead_kb=256.
std::string loop_report(const std::string& dir, const std::string& backing) {
  const std::string golden = std::string(DISKTUNE_TEST_DATA) + "/golden/report_seed.json";
  const auto text = tuner::read_whole_file(golden);
  REQUIRE(text.has_value());
  json::value report = json::parse(*text);
  auto& device = report.at("device").as_object();
  device["path"] = "/dev/loop9";
  device["simulated"] = false;
  device["model"] = "Loop";
  device["serial"] = "";
  device["backing_file"] = backing;
  report.at("winner").as_object()["changes"] = json::object{{"read_ahead_kb", 256}};
  report.at("baseline").as_object()["settings"].as_object()["read_ahead_kb"] = 128;
  report.at("space").as_object()["dimensions"] =
      json::array{json::object{{"setting", "read_ahead_kb"}, {"values", json::array{128, 256, 1024}}}};
  const std::string path = dir + "/report.json";
  std::ofstream(path) << json::serialize(report);
  return path;
}

tuner::InstallOptions install_config(const std::string& report, const std::string& root) {
  tuner::InstallOptions install;
  install.report = report;
  install.root = root;
  return install;
}

// Every file and symlink under `root`, relative to it, sorted (directories left out).
std::vector<std::string> files_under(const std::string& root) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(root, ec))
    if (!entry.is_directory() || entry.is_symlink()) files.push_back(entry.path().lexically_relative(root).string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("install: the files for a loop device's report, keyed by its backing file, each marked") {
  const testing::TempDir dir("install-files");
  const auto path = loop_report(dir.path(), "/tmp/a b.img");
  const auto text = tuner::read_whole_file(path).value();
  const auto report = results::parse_saved_report(text, path).value();
  CHECK(tuner::install_key(report.device) == "loop_tmp_a_b.img");
  const auto files = tuner::install_files(report, text, "/usr/sbin/disktune", tuner::kDefaultInstallForms);
  REQUIRE(files.size() == 4);
  CHECK(files[0].path == "etc/disktune/loop_tmp_a_b.img.json");
  CHECK(files[0].content == text);
  CHECK(files[1].path == "etc/udev/rules.d/69-disktune-loop_tmp_a_b.img.rules");
  CHECK(tuner::carries_mark(files[1].content));
  CHECK_THAT(files[1].content, Catch::Contains("ATTR{queue/read_ahead_kb}=\"256\""));
  CHECK(files[2].path == tuner::kUnit);
  CHECK(tuner::exec_start(files[2].content) == "ExecStart=/usr/sbin/disktune apply --config /etc/disktune");
  CHECK(files[3].path == tuner::kSleepHook);
  CHECK(files[3].executable);
}

TEST_CASE("install: a report that keeps the baseline has nothing to install") {
  const testing::TempDir dir("install-baseline");
  const auto path = loop_report(dir.path(), "/tmp/a.img");
  auto text = tuner::read_whole_file(path).value();
  auto value = json::parse(text);
  value.at("winner").as_object()["changes"] = json::object{};
  text = json::serialize(value);
  const auto report = results::parse_saved_report(text, path).value();
  CHECK_THROWS_WITH(tuner::install_files(report, text, "/usr/sbin/disktune", tuner::kDefaultInstallForms),
                    Catch::Contains("recommends keeping the baseline: nothing to install"));
}

TEST_CASE("install then uninstall under --root: the files written, the unit enabled, then nothing left") {
  const testing::FakeHost host;  // install's lock for its root under a temporary directory: no root needed
  const testing::TempDir dir("install-cycle");
  const auto report = loop_report(dir.path(), "/tmp/a.img");
  const std::string root = dir.path() + "/root";
  fs::create_directory(root);
  std::ostringstream out;
  REQUIRE(tuner::run_install(install_config(report, root), out) == tuner::kExitOk);
  CHECK(files_under(root) == std::vector<std::string>{
                                 "etc/disktune/loop_tmp_a.img.json",
                                 "etc/systemd/system/disktune-apply.service",
                                 "etc/systemd/system/multi-user.target.wants/disktune-apply.service",
                                 "etc/udev/rules.d/69-disktune-loop_tmp_a.img.rules",
                                 "usr/lib/systemd/system-sleep/disktune",
                             });
  CHECK(fs::read_symlink(root + "/" + tuner::kUnitLink) == "../disktune-apply.service");
  REQUIRE(tuner::run_uninstall(install_config(report, root), out) == tuner::kExitOk);
  CHECK(files_under(root).empty());
}

// A copy installed before the winner check, its winner now refused, must stay ours
// to replace and to remove (uninstall reads the drive's identity only).
TEST_CASE("install: a copy whose winner the check now refuses is still replaced and removed") {
  const testing::FakeHost host;
  const testing::TempDir dir("install-edited");
  const auto report = loop_report(dir.path(), "/tmp/a.img");
  const std::string root = dir.path() + "/root";
  fs::create_directory(root);
  std::ostringstream out;
  REQUIRE(tuner::run_install(install_config(report, root), out) == tuner::kExitOk);
  const std::string installed = root + "/etc/disktune/loop_tmp_a.img.json";
  json::value edited = json::parse(tuner::read_whole_file(installed).value());
  edited.at("winner").as_object()["changes"] = json::object{{"read_ahead_kb", 99}};
  std::ofstream(installed, std::ios::trunc) << json::serialize(edited);
  REQUIRE(tuner::run_install(install_config(report, root), out) == tuner::kExitOk);  // replaced
  CHECK(tuner::read_whole_file(installed).value() == tuner::read_whole_file(report).value());
  std::ofstream(installed, std::ios::trunc) << json::serialize(edited);
  std::ofstream(report, std::ios::trunc) << json::serialize(edited);  // uninstall named by the edited copy
  REQUIRE(tuner::run_uninstall(install_config(report, root), out) == tuner::kExitOk);
  CHECK(files_under(root).empty());
}

TEST_CASE("install: a file of someone else's at the rule's path is refused, nothing written") {
  const testing::FakeHost host;  // install's lock for its root under a temporary directory: no root needed
  const testing::TempDir dir("install-theirs");
  const auto report = loop_report(dir.path(), "/tmp/a.img");
  const std::string root = dir.path() + "/root";
  fs::create_directories(root + "/etc/udev/rules.d");
  const std::string theirs = root + "/etc/udev/rules.d/69-disktune-loop_tmp_a.img.rules";
  std::ofstream(theirs) << "# my own rule\n";
  std::ostringstream out;
  try {
    tuner::run_install(install_config(report, root), out);
    FAIL("install replaced a file it did not write");
  } catch (const tuner::RunError& e) {
    CHECK(e.code() == tuner::kExitUsage);
    CHECK_THAT(e.what(), Catch::Contains("was not written by disktune install"));
  }
  CHECK(files_under(root) == std::vector<std::string>{"etc/udev/rules.d/69-disktune-loop_tmp_a.img.rules"});
  CHECK(tuner::read_whole_file(theirs).value() == "# my own rule\n");
}

TEST_CASE("install: a relative --exe is refused before any warning about where it is") {
  const testing::TempDir dir("install-exe");
  const testing::FakeHost host;  // install's lock for its root under a temporary directory: no root needed
  const auto report = loop_report(dir.path(), "/tmp/a.img");
  fs::create_directory(dir.path() + "/root");
  auto config = install_config(report, dir.path() + "/root");
  config.exe = "relative/dt";
  std::ostringstream out;
  CHECK_THROWS_WITH(tuner::run_install(config, out), Catch::Contains("'relative/dt' is not a plain absolute path"));
  CHECK(out.str().empty());
  CHECK(files_under(dir.path() + "/root").empty());
}

TEST_CASE("install and uninstall: a --root that is no existing directory is refused by name, nothing made") {
  const testing::FakeHost host;
  const testing::TempDir dir("install-bad-root");
  const auto report = loop_report(dir.path(), "/tmp/a.img");
  const std::string missing = dir.path() + "/no/such/root";
  const std::string file = dir.path() + "/a-file";
  std::ofstream(file) << "x";
  std::ostringstream out;
  for (const auto& run : {tuner::run_install, tuner::run_uninstall}) {
    CHECK_THROWS_WITH(run(install_config(report, missing), out),
                      Catch::Contains("--root " + missing + ": no such directory"));
    CHECK_THROWS_WITH(run(install_config(report, file), out), Catch::Contains("--root " + file + ": not a directory"));
  }
  // A symlink loop is no missing directory: the reason is the system's.
  fs::create_symlink(dir.path() + "/loop", dir.path() + "/loop");
  CHECK_THROWS_WITH(tuner::run_install(install_config(report, dir.path() + "/loop"), out),
                    Catch::Contains("Too many levels of symbolic links"));
  CHECK_FALSE(fs::exists(dir.path() + "/no"));
  CHECK(out.str().empty());
}
