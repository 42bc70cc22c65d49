// SPDX-License-Identifier: GPL-2.0-or-later
// apply, verify and restore as whole commands on a fake host (tests/support/fake_host.hpp):
// in this process, without root, against a simulated disk whose settings persist between
// commands as a real disk's do. The script tests check the same on loop devices as root.
#include "tuner/keep/apply.hpp"
#include "tuner/keep/restore.hpp"
#include "tuner/keep/verify.hpp"

#include "tests/support/fake_host.hpp"
#include "tuner/host/input_file.hpp"
#include "tuner/keep/drive_match.hpp"

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;
namespace json = boost::json;

namespace {

// The golden report of the seed drive (winner multcount=16, io_support=3, unmaskirq=1,
// using_dma=1, xfermode=udma2) as the fake host's disk's report, written to `dir`.
std::string seed_report(const std::string& dir) {
  const auto text = tuner::read_whole_file(std::string(DISKTUNE_TEST_DATA) + "/golden/report_seed.json");
  REQUIRE(text.has_value());
  json::value report = json::parse(*text);
  const auto live = tuner::live_identity(testing::kFakeDisk);
  REQUIRE(live.has_value());
  auto& device = report.at("device").as_object();
  device["path"] = testing::kFakeDisk;
  device["simulated"] = false;
  device["size_bytes"] = live->size_bytes;
  const std::string path = dir + "/report.json";
  std::ofstream(path) << json::serialize(report);
  return path;
}

const std::vector<std::pair<SettingId, SettingValue>> kWinner{
    {SettingId::multcount, SettingValue(16)}, {SettingId::io_support, SettingValue(3)},
    {SettingId::unmaskirq, SettingValue(1)},  {SettingId::using_dma, SettingValue(1)},
    {SettingId::xfermode, SettingValue(66)}};  // udma2: XFER_UDMA_0 (64) + 2

tuner::ApplyOptions apply_on_seed_drive(const std::string& report) {
  tuner::ApplyOptions apply;
  apply.report = report;
  apply.device.spec = testing::kFakeDisk;  // named, as the boot unit's --config does not: both find it
  apply.device_named = true;
  return apply;
}

// The apply journals in the fake host's state directory.
std::vector<std::string> apply_journals(const testing::FakeHost& host) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(host.state_dir()))
    if (entry.path().filename().string().ends_with(".apply.journal")) names.push_back(entry.path().string());
  return names;
}

}  // namespace

TEST_CASE("apply writes the winner on its drive and journals it; verify finds it; restore puts the values found back",
          "[tuner][keep]") {
  testing::FakeHost host;
  auto& disk = host.disk();
  const auto found = disk.snapshot().value();
  for (const auto& [id, value] : kWinner)  // not vacuous: every knob but xfermode (udma2 as found) changes
    if (id != SettingId::xfermode) REQUIRE(found.at(id) != value);
  const std::string report = seed_report(host.state_dir());
  std::ostringstream out, err;

  REQUIRE(tuner::run_apply(apply_on_seed_drive(report), out, err) == tuner::kExitOk);
  for (const auto& [id, value] : kWinner) CHECK(disk.read(id).value() == value);
  CHECK_THAT(out.str(), Catch::Contains("(every value read back)"));
  REQUIRE(apply_journals(host).size() == 1);
  const auto journal = tuner::read_whole_file(apply_journals(host).front());
  REQUIRE(journal.has_value());
  CHECK_THAT(*journal, Catch::Contains(report));

  tuner::VerifyOptions verify;
  verify.reports = {report};
  out.str("");
  CHECK(tuner::run_verify(verify, out, err) == tuner::kExitOk);
  CHECK_THAT(out.str(), Catch::Contains(std::string(testing::kFakeDisk) + ": ok"));

  tuner::RestoreOptions restore;  // the default journals
  restore.device.spec = testing::kFakeDisk;
  REQUIRE(tuner::run_restore(restore, err) == tuner::kExitOk);
  for (const auto& [id, value] : kWinner) CHECK(disk.read(id).value() == found.at(id));
  CHECK_THAT(err.str(), Catch::Contains("restored the values from before the apply"));

  out.str("");
  CHECK(tuner::run_verify(verify, out, err) == tuner::kExitDrift);  // the apply is undone: each knob differs
  CHECK_THAT(out.str(), Catch::Contains("DRIFT") && Catch::Contains("multcount: expected 16"));

  err.str("");
  CHECK(tuner::run_restore(restore, err) == tuner::kExitOk);  // a second restore has nothing to do
  CHECK_THAT(err.str(), Catch::Contains("nothing to restore on " + std::string(testing::kFakeDisk)));
}

TEST_CASE("verify names a setting changed behind the apply's back, with what it expected", "[tuner][keep]") {
  testing::FakeHost host;
  auto& disk = host.disk();
  const std::string report = seed_report(host.state_dir());
  std::ostringstream out, err;
  REQUIRE(tuner::run_apply(apply_on_seed_drive(report), out, err) == tuner::kExitOk);
  REQUIRE(disk.apply(SettingId::multcount, SettingValue(8)).has_value());  // someone else's hdparm -m8

  tuner::VerifyOptions verify;
  verify.reports = {report};
  out.str("");
  CHECK(tuner::run_verify(verify, out, err) == tuner::kExitDrift);
  CHECK_THAT(out.str(), Catch::Contains("multcount: expected 16, actual 8"));
  CHECK_THAT(out.str(), Catch::Contains("io_support: expected 3, actual 3  ok"));  // only the knob that moved drifts
}

TEST_CASE("apply refuses another drive named after the report, and writes nothing", "[tuner][keep]") {
  testing::FakeHost host;
  auto& disk = host.disk();
  const auto found = disk.snapshot().value();
  const std::string report = seed_report(host.state_dir());
  auto apply = apply_on_seed_drive(report);
  apply.device.spec = "/dev/disktune-no-such-disk";  // not the fake machine's: nothing there
  std::ostringstream out, err;
  try {
    tuner::run_apply(apply, out, err);
    FAIL("apply on a device that is not the report's drive succeeded");
  } catch (const tuner::RunError& e) {
    CHECK(e.code() == tuner::kExitDevice);
    CHECK_THAT(e.what(), Catch::Contains("cannot be opened") && Catch::Contains("nothing applied"));
  }
  CHECK(disk.snapshot().value() == found);
  CHECK(apply_journals(host).empty());
}

TEST_CASE("restore without any journal of the drive is an error naming where it looked", "[tuner][keep]") {
  testing::FakeHost host;
  std::ostringstream err;
  try {
    tuner::RestoreOptions restore;
    restore.device.spec = testing::kFakeDisk;
    tuner::run_restore(restore, err);
    FAIL("restore without a journal succeeded");
  } catch (const tuner::RunError& e) {
    CHECK(e.code() == tuner::kExitUsage);
    CHECK_THAT(e.what(), Catch::Contains("no journal for " + std::string(testing::kFakeDisk) + " at " + host.state_dir() + "/"));
  }
}

TEST_CASE("verify --journal reads the journal apply and restore were given; without it, it claims no record it did not read",
          "[tuner][keep]") {
  testing::FakeHost host;
  const std::string report = seed_report(host.state_dir());
  const std::string journal = host.state_dir() + "/elsewhere.journal";
  std::ostringstream out, err;
  auto apply = apply_on_seed_drive(report);
  apply.journal_path = journal;
  REQUIRE(tuner::run_apply(apply, out, err) == tuner::kExitOk);
  REQUIRE(apply_journals(host).empty());  // nothing at the default path
  tuner::RestoreOptions restore;
  restore.device.spec = testing::kFakeDisk;
  restore.journal.path = journal;
  REQUIRE(tuner::run_restore(restore, err) == tuner::kExitOk);

  tuner::VerifyOptions verify;
  verify.reports = {report};
  verify.journal_path = journal;
  out.str("");
  CHECK(tuner::run_verify(verify, out, err) == tuner::kExitDrift);
  CHECK_THAT(out.str(), Catch::Contains("multcount: expected 16") &&
                            Catch::Contains("'disktune restore' at ") &&
                            Catch::Contains("put back the values from before the apply (apply journal " + journal + ")"));

  verify.journal_path.reset();  // the default journal, which does not exist: said as such, nothing asserted
  out.str("");
  CHECK(tuner::run_verify(verify, out, err) == tuner::kExitDrift);
  CHECK_THAT(out.str(), Catch::Contains("multcount: expected 16") && Catch::Contains("no apply journal at " + host.state_dir() + "/"));
  CHECK_THAT(out.str(), !Catch::Contains("no apply is recorded") && !Catch::Contains("'disktune restore' at"));
}

TEST_CASE("verify and apply --config name every *.json they cannot read, exit 2, and still check the others",
          "[tuner][keep]") {
  testing::FakeHost host;
  const std::string report = seed_report(host.state_dir());
  const std::string dir = host.state_dir() + "/conf";
  std::filesystem::create_directories(dir + "/x.json");  // a directory named like a report
  std::filesystem::copy_file(report, dir + "/a.json");
  std::filesystem::create_symlink("/dev/zero", dir + "/zero.json");
  std::filesystem::create_symlink(dir + "/nowhere", dir + "/dangling.json");
  REQUIRE(::mkfifo((dir + "/fifo.json").c_str(), 0600) == 0);  // an open of it would block this test
  std::ofstream(dir + "/torn.json") << "{\"schema_version\": 3,";
  const std::vector<std::pair<std::string, std::string>> unread{
      {"dangling.json", "No such file or directory (a symbolic link to " + dir + "/nowhere)"},
      {"fifo.json", "is a FIFO (named pipe), not a regular file"},
      {"torn.json", "not JSON"},
      {"x.json", "is a directory, not a regular file"},
      {"zero.json", "is a character device, not a regular file (a symbolic link to /dev/zero)"}};

  tuner::ApplyOptions apply;
  apply.config_dir = dir;
  std::ostringstream out, err;
  CHECK(tuner::run_apply(apply, out, err) == tuner::kExitUsage);
  for (const auto& [id, value] : kWinner) CHECK(host.disk().read(id).value() == value);  // a.json applied
  for (const auto& [name, why] : unread) CHECK_THAT(err.str(), Catch::Contains(dir + "/" + name + ": " + why));

  tuner::VerifyOptions verify;
  verify.config_dir = dir;
  out.str("");
  err.str("");
  CHECK(tuner::run_verify(verify, out, err) == tuner::kExitUsage);
  CHECK_THAT(out.str(), Catch::Contains(dir + "/a.json: " + std::string(testing::kFakeDisk) + ": ok"));
  for (const auto& [name, why] : unread) CHECK_THAT(err.str(), Catch::Contains(dir + "/" + name + ": " + why));
  CHECK_THAT(err.str(), Catch::Contains("not checked"));

  verify.json = true;
  out.str("");
  CHECK(tuner::run_verify(verify, out, err) == tuner::kExitUsage);
  const auto doc = json::parse(out.str()).as_object();
  CHECK(doc.at("status") == "unread");  // never "ok" with a report left unread
  CHECK(doc.at("drives").as_array().size() == 1);
  CHECK(doc.at("unread").as_array().size() == unread.size());
}
