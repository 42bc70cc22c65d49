// SPDX-License-Identifier: GPL-2.0-or-later
// The restore a tune journal owes, as a refusal of its disk names it: after a kill, after a
// restore and a resumed trial, after a run whose own restore failed; none after a signal stop.
#include "tuner/journal/pending_restore.hpp"

#include "results/journal.hpp"
#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace disktune;

namespace {

// A tune journal of `device` at `path`: its start record, a trial begun, then `tail`'s records.
void write_journal(const std::string& path, const std::string& device, const std::vector<boost::json::value>& tail) {
  const results::JournalIdentity id{device, "", "", "", 1u << 20, "6.18", "", ""};
  const probe::Settings original{{probe::SettingId::read_ahead_kb, probe::SettingValue(std::int64_t{128})}};
  const probe::Settings trial{{probe::SettingId::read_ahead_kb, probe::SettingValue(std::int64_t{0})}};
  std::ofstream out(path);
  out << results::encode_record(results::start_record(id, "boot-a", "t0", original, {}))
      << results::encode_record(results::intent_record(trial, false, "boot-a"));
  for (const auto& record : tail) out << results::encode_record(record);
}

}  // namespace

TEST_CASE("pending restore: owed after a kill and after a failed restore, not after a signal stop's", "[tuner]") {
  const testing::TempDir dir("pending-restore");
  const std::string device = dir.path() + "/disk";  // a path that exists, as a device's does
  std::ofstream(device).put('x');
  const std::string journal = dir.path() + "/j";

  write_journal(journal, device, {});  // killed in its trial
  CHECK_THAT(tuner::pending_restore_note(device, journal), Catch::Contains("did not end (killed?)"));
  write_journal(journal, device, {results::restore_record("t1", "boot-a", true)});  // stopped by a signal
  CHECK(tuner::pending_restore_note(device, journal).empty());
  // Its own restore failed: the end record says so, and a restore is owed all the same.
  write_journal(journal, device, {results::end_record(false, "t1", "boot-a")});
  CHECK_THAT(tuner::pending_restore_note(device, journal), Catch::Contains("ended without restoring its settings"));
  write_journal(journal, device, {results::end_record(true, "t1", "boot-a")});
  CHECK(tuner::pending_restore_note(device, journal).empty());
}
