// SPDX-License-Identifier: GPL-2.0-or-later
// apply's write against a fake device: written and read back, or the values found put back and journaled.
#include "tuner/keep/apply_write.hpp"

#include "tests/support/coupled_device.hpp"
#include "tests/support/temp_dir.hpp"
#include "tuner/run_error.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;
using testing::num;

namespace {

// The journal's records as `apply` and `restore` read them.
results::JournalState journal_state(const std::string& path) {
  tuner::JournalFile reread(path);
  auto state = results::read_journal(reread.existing_text(), path);
  REQUIRE(state.has_value());
  return *state;
}

// An apply journal with its start record, as open_apply_journal writes it.
void start_journal(tuner::JournalFile& journal, const probe::Settings& found) {
  const results::JournalIdentity id{"fake:coupled", "", "", "", 1u << 20, "6.18", "", ""};
  journal.append(results::start_record(id, "boot-a", "t0", found, boost::json::object{{"command", "apply"}}));
}

}  // namespace

TEST_CASE("apply's write: every value written and read back; the journal is left to the caller", "[tuner]") {
  testing::TempDir dir("apply-write");
  testing::CoupledDevice device;
  const auto found = device.state;
  auto target = found;
  target[SettingId::read_ahead_kb] = num(4096);
  target[SettingId::nr_requests] = num(64);
  {
    tuner::JournalFile journal(dir.path() + "/j");
    start_journal(journal, found);
    tuner::write_or_put_back(tuner::SettingsWriter(device), journal, target, found, {found, std::nullopt}, "apply test");
  }
  CHECK(device.state == target);
  CHECK(journal_state(dir.path() + "/j").restores == 0);
}

TEST_CASE("apply's write refused by the device: the values found are put back and a restore is journaled", "[tuner]") {
  testing::TempDir dir("apply-write");
  testing::CoupledDevice device;
  device.rejected = {SettingId::nr_requests};
  const auto found = device.state;
  auto target = found;
  target[SettingId::read_ahead_kb] = num(4096);
  target[SettingId::nr_requests] = num(64);
  std::string message;
  int code = 0;
  {
    tuner::JournalFile journal(dir.path() + "/j");
    start_journal(journal, found);
    try {
      tuner::write_or_put_back(tuner::SettingsWriter(device), journal, target, found, {found, std::nullopt}, "apply test");
    } catch (const tuner::RunError& e) {
      message = e.what();
      code = e.code();
    }
  }
  CHECK(code == tuner::kExitDevice);
  CHECK_THAT(message, Catch::StartsWith("apply test failed: ") &&
                          Catch::Contains("the values found were put back and read back"));
  CHECK(device.state == found);  // read_ahead_kb, written before nr_requests failed, is back too
  const auto state = journal_state(dir.path() + "/j");
  CHECK(state.restores == 1);
  CHECK_FALSE(state.apply.in_effect);
}

TEST_CASE("apply's write refused while an earlier apply is in effect: that apply stays in effect", "[tuner]") {
  testing::TempDir dir("apply-write");
  testing::CoupledDevice device;
  const auto before = device.state;  // the values before the first apply
  device.state[SettingId::read_ahead_kb] = num(2048);
  const auto found = device.state;  // the earlier apply's configuration
  device.rejected = {SettingId::nr_requests};
  auto target = found;
  target[SettingId::nr_requests] = num(64);
  std::string message;
  {
    tuner::JournalFile journal(dir.path() + "/j");
    start_journal(journal, before);
    journal.append(results::apply_record(found, true, "earlier.json", "t1", "boot-a"));
    try {
      tuner::write_or_put_back(tuner::SettingsWriter(device), journal, target, found, {before, "earlier.json"}, "apply test");
    } catch (const tuner::RunError& e) {
      message = e.what();
    }
  }
  CHECK_THAT(message, Catch::Contains("(the apply of earlier.json stays in effect)"));
  CHECK(device.state == found);
  const auto state = journal_state(dir.path() + "/j");
  CHECK(state.restores == 0);
  CHECK(state.apply.in_effect);
  REQUIRE(state.apply.applied);
  CHECK(*state.apply.applied == found);
  CHECK(state.original == before);  // 'disktune restore' still reaches the values from before it
}

TEST_CASE("apply's write refused and the values found cannot be put back either: exit 4, naming the journal",
          "[tuner]") {
  testing::TempDir dir("apply-write");
  testing::CoupledDevice device;
  const auto found = device.state;
  auto target = found;
  target[SettingId::read_ahead_kb] = num(4096);
  target[SettingId::max_sectors_kb] = num(64);
  // max_sectors_kb (written first) takes 64 but refuses to go back to 1280; read_ahead_kb refuses 4096.
  device.accepts = [](const probe::Settings&, SettingId id, const probe::SettingValue& value) {
    if (id == SettingId::max_sectors_kb) return value != num(1280);
    return !(id == SettingId::read_ahead_kb && value == num(4096));
  };
  int code = 0;
  std::string message;
  {
    tuner::JournalFile journal(dir.path() + "/j");
    start_journal(journal, found);
    try {
      tuner::write_or_put_back(tuner::SettingsWriter(device), journal, target, found, {found, std::nullopt}, "apply test");
    } catch (const tuner::RunError& e) {
      code = e.code();
      message = e.what();
    }
  }
  CHECK(code == tuner::kExitRestoreFailed);
  CHECK_THAT(message, Catch::Contains("the values found could not be put back") &&
                          Catch::Contains("--journal " + dir.path() + "/j"));
}
