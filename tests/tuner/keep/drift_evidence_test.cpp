// SPDX-License-Identifier: GPL-2.0-or-later
// read_apply_evidence: an apply's records only from this drive's apply journal, read; else what was found.
#include "tuner/keep/drift_evidence.hpp"

#include "tests/support/temp_dir.hpp"
#include "tuner/journal/journal_file.hpp"

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>

using namespace disktune;
using probe::SettingId;

namespace {

const results::JournalIdentity kDrive{"/dev/loop7", "", "", "", 16u << 20, "6.18", "/srv/a.img", ""};

// A journal of `records` at `path`, as the commands write it.
void write_journal(const std::string& path, const std::vector<boost::json::value>& records) {
  tuner::JournalFile journal(path);
  for (const auto& record : records) journal.append(record);
}

boost::json::value start(const results::JournalIdentity& identity, const std::string& command) {
  return results::start_record(identity, "boot-a", "2026-12-01T09:00:00Z",
                               {{SettingId::read_ahead_kb, probe::SettingValue(128)}}, boost::json::object{{"command", command}});
}

boost::json::value apply(bool done) {
  return results::apply_record({{SettingId::read_ahead_kb, probe::SettingValue(1024)}}, done, "/tmp/r.json",
                               "2026-12-01T10:00:00Z", "boot-a");
}

}  // namespace

TEST_CASE("read_apply_evidence: no apply record read, what was found at the journal's path is said instead",
          "[tuner][keep]") {
  testing::TempDir dir("apply-evidence");
  const std::string path = dir.path() + "/aj";
  tuner::DriftEvidence evidence;
  std::string expected;
  SECTION("absent") {
    expected = "no apply journal at " + path;
  }
  SECTION("a FIFO: named, never opened (an open would block this test)") {
    REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    expected = path + " cannot be read: not a regular file";
  }
  SECTION("damaged") {
    std::ofstream(path) << "{\"type\": \"start\",\n";
    expected = "the apply journal " + path + " is damaged: ";
  }
  SECTION("a tune's journal") {
    write_journal(path, {start(kDrive, "tune")});
    expected = path + " is a tune's journal, not an apply journal";
  }
  SECTION("another drive's") {
    auto other = kDrive;
    other.backing_file = "/srv/b.img";
    write_journal(path, {start(other, "apply"), apply(false), apply(true)});
    expected = "the apply journal " + path + " is another drive's (backing file";
  }
  SECTION("an apply that never completed") {
    write_journal(path, {start(kDrive, "apply"), apply(false)});
    expected = "the apply journal " + path + " records no completed apply";
  }
  const auto state = tuner::read_apply_evidence(evidence, path, kDrive);
  CHECK_THAT(evidence.no_apply, Catch::StartsWith(expected));
  CHECK(evidence.apply_journal == path);
  CHECK(evidence.applied_at.empty());
  CHECK(evidence.restored_at.empty());
}

TEST_CASE("read_apply_evidence: an apply and a restore read from this drive's apply journal", "[tuner][keep]") {
  testing::TempDir dir("apply-evidence");
  const std::string path = dir.path() + "/aj";
  write_journal(path, {start(kDrive, "apply"), apply(false), apply(true),
                       results::restore_record("2026-12-01T11:00:00Z", "boot-a")});
  tuner::DriftEvidence evidence;
  const auto state = tuner::read_apply_evidence(evidence, path, kDrive);
  REQUIRE(state.has_value());
  CHECK(evidence.no_apply.empty());
  CHECK(evidence.applied_at == "2026-12-01T10:00:00Z");
  CHECK(evidence.applied_boot_id == "boot-a");
  CHECK(evidence.restored_at == "2026-12-01T11:00:00Z");
  CHECK(tuner::drift_cause(evidence, SettingId::read_ahead_kb) ==
        "'disktune restore' at 2026-12-01T11:00:00Z put back the values from before the apply (apply journal " + path + ")");
}
