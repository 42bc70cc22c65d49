// SPDX-License-Identifier: GPL-2.0-or-later
// The tune journal and `restore` on a simulated drive: no root, no device node, a file in a
// temporary directory. What the script tests check on loop devices, here without root.
#include "tuner/journal/run_journal.hpp"

#include "results/journal.hpp"
#include "tests/support/sim_fixture.hpp"
#include "tests/support/temp_dir.hpp"
#include "tuner/host/input_file.hpp"
#include "tuner/run_error.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;

namespace {

// A simulated seed drive as `tune` opens it, its settings as found recorded as the originals.
tuner::DeviceContext sim_context() {
  tuner::DeviceContext context;
  context.device = testing::make_sim(testing::seed_identify());
  context.original = context.device->snapshot().value();
  return context;
}

tuner::JournalOptions journal_config(const testing::TempDir& dir) {
  tuner::JournalOptions journal;
  journal.path = dir.path() + "/run.journal";
  return journal;
}

const tuner::DeviceRequest kSeedDrive{};  // "sim:", seed 1

results::JournalState state_of(const std::string& path) {
  const auto text = tuner::read_whole_file(path);
  REQUIRE(text.has_value());
  auto state = results::read_journal(*text, path);
  REQUIRE(state.has_value());
  return std::move(*state);
}

const boost::json::object kOptions{{"duration_s", 3.0}, {"repeats", 3}};

}  // namespace

TEST_CASE("run journal: started with the originals, resumed while unfinished, set aside once finished") {
  const testing::TempDir dir("run-journal");
  const auto config = journal_config(dir);
  auto context = sim_context();
  const probe::Settings trial = probe::with_changes(context.original, {{SettingId::multcount, SettingValue(8)}});
  std::ostringstream log;
  {
    const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
    CHECK(journal->path() == *config.path);
    REQUIRE_FALSE(journal->begin(trial, false).has_value());  // an intent, then the process "dies"
  }
  auto state = state_of(*config.path);
  CHECK(state.identity.path == "sim:");
  CHECK(state.original == context.original);
  CHECK_FALSE(state.finished);
  CHECK(state.tune.pending.size() == 1);

  {
    const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
    CHECK_THAT(log.str(), Catch::Contains("resuming " + *config.path + ": nothing measured yet; 1 trial in flight when it stopped"));
    REQUIRE_FALSE(journal->finish(true).has_value());
  }
  state = state_of(*config.path);
  CHECK(state.finished);
  CHECK(state.restored);

  log.str("");
  { const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log); }
  CHECK_THAT(log.str(), Catch::Contains("previous journal kept as " + *config.path + "."));
  CHECK_FALSE(state_of(*config.path).finished);  // a new run's start record
}

// "previous journal kept as X" with X gone misleads: a journal that measured nothing, its
// settings back, is pruned as it is set aside, and said to be.
TEST_CASE("run journal: a finished journal that measured nothing is said to be removed, not kept") {
  const testing::TempDir dir("run-journal-empty");
  const auto config = journal_config(dir);
  auto context = sim_context();
  std::ostringstream log;
  {
    const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
    REQUIRE_FALSE(journal->finish(true).has_value());
  }
  log.str("");
  { const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log); }
  CHECK(log.str() == "disktune: previous journal " + *config.path + " removed: it measured nothing, and its settings are back\n");
  CHECK_FALSE(state_of(*config.path).finished);  // a new run's start record
}

TEST_CASE("run journal: a resume with other measurement options is refused, naming both values") {
  const testing::TempDir dir("run-journal-options");
  const auto config = journal_config(dir);
  auto context = sim_context();
  std::ostringstream log;
  { const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log); }
  const boost::json::object other{{"duration_s", 1.0}, {"repeats", 3}};
  try {
    tuner::RunJournal::open(config, kSeedDrive, context, other, log);
    FAIL("a resume with another --duration was accepted");
  } catch (const tuner::RunError& e) {
    CHECK(e.code() == tuner::kExitUsage);
    CHECK_THAT(e.what(), Catch::Contains("other measurement options") && Catch::Contains("3 (journal) vs 1 (command line)"));
  }
}

TEST_CASE("restore: the originals a tune journal recorded come back on the drive, and the journal says so") {
  const testing::TempDir dir("run-journal-restore");
  const auto config = journal_config(dir);
  auto context = sim_context();
  const auto found = context.device->read(SettingId::multcount).value();
  std::ostringstream log;
  { const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log); }
  // A trial's value left on the drive by a run that was killed.
  REQUIRE(context.device->apply(SettingId::multcount, SettingValue(found.number() == 8 ? 4 : 8)).has_value());
  REQUIRE(context.device->read(SettingId::multcount).value() != found);

  tuner::restore_from_journal(config, kSeedDrive, context, log);
  CHECK(context.device->read(SettingId::multcount).value() == found);
  CHECK_THAT(log.str(), Catch::Contains("restored the settings from before the tune"));
  const auto state = state_of(*config.path);
  CHECK(state.restores == 1);
  CHECK_FALSE(state.finished);  // the next tune resumes it
}

TEST_CASE("restore: no journal is an error naming the path, nothing written") {
  const testing::TempDir dir("run-journal-none");
  const auto config = journal_config(dir);
  auto context = sim_context();
  std::ostringstream log;
  try {
    tuner::restore_from_journal(config, kSeedDrive, context, log);
    FAIL("restore without a journal succeeded");
  } catch (const tuner::RunError& e) {
    CHECK(e.code() == tuner::kExitUsage);
    CHECK_THAT(e.what(), Catch::Contains("no journal for sim: at " + *config.path));
    CHECK_THAT(e.what(), !Catch::Contains("--journal FILE"));  // it was named: no hint to name one
  }
  CHECK(log.str().empty());
}

TEST_CASE("run journal: a confirmation round is one unit: measured once, taken from the journal on resume") {
  const testing::TempDir dir("run-journal");
  const auto config = journal_config(dir);
  auto context = sim_context();
  const std::vector<probe::Settings> contenders{
      context.original, probe::with_changes(context.original, {{SettingId::multcount, SettingValue(8)}})};
  std::vector<strategies::TrialResult> figures(2);
  for (auto& figure : figures) {
    figure.status = strategies::TrialStatus::ok;
    figure.samples = {10.0, 11.0};
    strategies::summarize_samples(figure);
  }
  int measured = 0;
  const strategies::RoundMeasure measure = [&](const std::vector<probe::Settings>&) -> strategies::Confirmed {
    ++measured;
    return figures;
  };
  std::ostringstream log;
  {
    const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
    const auto round = journal->confirm_round(contenders, 0, measure);
    REQUIRE(std::holds_alternative<strategies::Round>(round));
    CHECK(std::get<strategies::Round>(round).results.size() == 2);
  }
  CHECK(measured == 1);
  const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
  const auto again = journal->confirm_round(contenders, 0, measure);
  REQUIRE(std::holds_alternative<strategies::Round>(again));
  CHECK(measured == 1);  // from the journal, not measured again
  CHECK(std::get<strategies::Round>(again).results[1].samples == figures[1].samples);
  // A measurement that ends in a stop records no result: the round stays in flight.
  const strategies::RoundMeasure stopped = [](const std::vector<probe::Settings>&) -> strategies::Confirmed {
    return strategies::Stop{strategies::StopReason::wedged, "device wedged", std::nullopt};
  };
  const auto wedged = journal->confirm_round(contenders, 1, stopped);
  REQUIRE(std::holds_alternative<strategies::Stop>(wedged));
  CHECK(std::get<strategies::Stop>(wedged).reason == strategies::StopReason::wedged);
  CHECK(state_of(*config.path).tune.pending_rounds.size() == 1);
}

TEST_CASE("run journal: a round skipped after two deaths names the unit each died in; the baseline's death reaches the resume") {
  const testing::TempDir dir("run-journal");
  const auto config = journal_config(dir);
  auto context = sim_context();
  const std::vector<probe::Settings> contenders{
      context.original, probe::with_changes(context.original, {{SettingId::multcount, SettingValue(8)}})};
  // Each attempt begins a unit and dies in it: the measurement never returns.
  struct Death {};
  auto dies_in = [&](tuner::RunJournal& journal, int pass, std::size_t unit) {
    return [&journal, pass, unit, &contenders](const std::vector<probe::Settings>&) -> strategies::Confirmed {
      REQUIRE_FALSE(journal.begin_unit(contenders, 0, pass, unit));
      throw Death{};
    };
  };
  std::ostringstream log;
  {
    const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
    REQUIRE_FALSE(journal->begin_baseline(strategies::TrialKind::baseline, 0));
    REQUIRE_FALSE(journal->begin_baseline(strategies::TrialKind::baseline_repeat, 1));
    CHECK_THROWS_AS(journal->confirm_round(contenders, 0, dies_in(*journal, 1, 1)), Death);
  }
  {
    const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
    const auto in_flight = journal->history().baseline_in_flight;
    REQUIRE(in_flight);
    CHECK(in_flight->attempts == 1);
    CHECK(in_flight->what == "noise repeat 1");
    CHECK_THROWS_AS(journal->confirm_round(contenders, 0, dies_in(*journal, 2, 0)), Death);
  }
  const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
  const auto skipped = journal->confirm_round(contenders, 0, dies_in(*journal, 1, 0));
  REQUIRE(std::holds_alternative<strategies::Round>(skipped));
  CHECK(std::get<strategies::Round>(skipped).skipped ==
        "the process died in the confirmation round twice (in flight: multcount=8 (pass 1); the baseline (pass 2)): "
        "the round is skipped; the answer is the search's best, unconfirmed");
}

// An EMULATED ssd's tune read 21 s elapsed before a kill -9 and 16 s after its resume: only the
// measured seconds were carried over. Every record carries the run's wall time ("run_s"); a
// resume counts on from the last, or, in an older disktune's journal, from its measured seconds.
TEST_CASE("run journal: every record carries the run's time, and a resume counts on from the last") {
  const testing::TempDir dir("run-journal");
  const auto config = journal_config(dir);
  auto context = sim_context();
  strategies::TrialResult trial;
  trial.settings = probe::with_changes(context.original, {{SettingId::multcount, SettingValue(8)}});
  trial.status = strategies::TrialStatus::ok;
  trial.samples = {10.0, 11.0};
  strategies::summarize_samples(trial);
  trial.measured_s = 0.05;
  std::ostringstream log;
  {
    const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
    CHECK(journal->interrupted_run_s() == 0.0);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    REQUIRE_FALSE(journal->record(trial).has_value());  // then the process "dies"
  }
  const auto recorded = state_of(*config.path).run_s;
  REQUIRE(recorded.has_value());
  CHECK(*recorded >= 0.3);
  CHECK(*recorded < 30.0);
  {
    const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
    CHECK(journal->interrupted_run_s() == Approx(*recorded));
    CHECK(*journal->run_seconds() >= *recorded);  // not the 0.05 s measured
  }

  // The same journal as an older disktune wrote it: no record carries "run_s".
  const auto text = tuner::read_whole_file(*config.path);
  REQUIRE(text.has_value());
  auto decoded = results::decode_journal(*text, *config.path);
  REQUIRE(decoded.has_value());
  std::string older;
  for (auto& record : decoded->records) {
    record.erase("run_s");
    older += results::encode_record(record);
  }
  std::ofstream(*config.path, std::ios::trunc) << older;
  REQUIRE_FALSE(state_of(*config.path).run_s.has_value());
  const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
  CHECK(journal->interrupted_run_s() == Approx(0.05));  // its measured seconds: no baseline was recorded
}

// --fresh on an unfinished journal puts its originals back first; the set-aside line then said
// they "stay in it: 'disktune restore ...' restores them", as if nothing had been restored.
TEST_CASE("run journal: --fresh says the set-aside journal's settings are back, not that a restore is owed") {
  const testing::TempDir dir("run-journal-fresh");
  auto config = journal_config(dir);
  auto context = sim_context();
  const probe::Settings trial = probe::with_changes(context.original, {{SettingId::multcount, SettingValue(8)}});
  std::ostringstream log;
  {
    const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
    REQUIRE_FALSE(journal->begin(trial, false).has_value());
  }
  log.str("");
  config.fresh = true;
  { const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log); }
  CHECK_THAT(log.str(), Catch::Contains("restored the original settings recorded in " + *config.path));
  CHECK_THAT(log.str(), Catch::Contains("(unfinished); its original settings are back on the drive"));
  CHECK_THAT(log.str(), !Catch::Contains("restores them"));
}

// A run stopped by a signal put its settings back and journaled it; an apply made afterwards
// was then undone by the next tune, which wrote the journal's originals over it.
TEST_CASE("run journal: a resume after a signal stop refuses a drive changed since, and puts nothing back", "[tuner]") {
  const testing::TempDir dir("run-journal-stopped");
  auto config = journal_config(dir);
  auto context = sim_context();
  const auto found = context.device->read(SettingId::multcount).value();
  const probe::Settings trial = probe::with_changes(context.original, {{SettingId::multcount, SettingValue(8)}});
  std::ostringstream log;
  {
    const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log);
    strategies::TrialResult measured;  // one trial measured (a journal of nothing is pruned when set aside)
    measured.settings = probe::with_changes(context.original, {{SettingId::multcount, SettingValue(4)}});
    measured.status = strategies::TrialStatus::ok;
    measured.samples = {5.0, 5.0};
    measured.median = measured.ci_low = measured.ci_high = 5.0;
    REQUIRE_FALSE(journal->begin(measured.settings, false).has_value());
    REQUIRE_FALSE(journal->record(measured).has_value());
    REQUIRE_FALSE(journal->begin(trial, false).has_value());
    REQUIRE_FALSE(journal->record_restored().has_value());  // the signal stop's restore
  }
  CHECK(state_of(*config.path).settings_back);
  CHECK(state_of(*config.path).tune.pending.empty());  // the stop was no death
  // Unchanged: resumed without a put-back.
  log.str("");
  { const auto journal = tuner::RunJournal::open(config, kSeedDrive, context, kOptions, log); }
  CHECK_THAT(log.str(), Catch::Contains("resuming") && !Catch::Contains("restored the original settings"));
  // Changed since (an apply): refused, the change kept.
  const SettingValue applied(found.number() == 16 ? 4 : 16);
  REQUIRE(context.device->apply(SettingId::multcount, applied).has_value());
  auto changed = sim_context();
  changed.device = std::move(context.device);
  changed.original = changed.device->snapshot().value();
  try {
    tuner::RunJournal::open(config, kSeedDrive, changed, kOptions, log);
    FAIL("a resume over a changed drive was accepted");
  } catch (const tuner::RunError& e) {
    CHECK(e.code() == tuner::kExitUsage);
    CHECK_THAT(e.what(), Catch::Contains("changed since") && Catch::Contains("multcount " + probe::format_value(SettingId::multcount, found) + " (journal) vs"));
  }
  CHECK(changed.device->read(SettingId::multcount).value() == applied);
  // --fresh starts over from the settings as they are now, and says what changed (it said "its
  // original settings are back on the drive" of a drive holding others).
  config.fresh = true;
  log.str("");
  { const auto journal = tuner::RunJournal::open(config, kSeedDrive, changed, kOptions, log); }
  CHECK_THAT(log.str(), Catch::Contains("the drive's settings changed since its own were put back: multcount ") &&
                            !Catch::Contains("back on the drive"));
  CHECK(state_of(*config.path).original.at(SettingId::multcount) == applied);
  CHECK(changed.device->read(SettingId::multcount).value() == applied);
}
