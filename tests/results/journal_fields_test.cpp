// SPDX-License-Identifier: GPL-2.0-or-later
// Journal fields read back: the run time each record carries, and a field of the wrong type.
#include "results/journal.hpp"

#include <boost/json/serialize.hpp>

#include <catch2/catch.hpp>

#include <tuple>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;

namespace {

probe::Settings config(std::int64_t multcount) { return {{SettingId::multcount, SettingValue(multcount)}}; }

// A start record and a result record: a journal of one trial, 2 records.
std::string sample_journal() {
  results::JournalIdentity id{"sim:", "IBM-DJNA-352500", "GW0", "J51OA30K", 512, "6.1.0", "", ""};
  strategies::TrialResult trial;
  trial.settings = config(16);
  trial.status = strategies::TrialStatus::ok;
  trial.samples = {8.2, 8.2};
  trial.median = 8.2;
  trial.ci_low = 8.0;
  trial.ci_high = 8.4;
  return results::encode_record(results::start_record(id, "boot-a", "t0", config(0), {})) +
         results::encode_record(results::result_record(trial, "boot-a"));
}

}  // namespace

TEST_CASE("a journal's run time is its records' latest run_s; one out of range makes it damaged", "[results]") {
  const std::string start = sample_journal();
  auto timed = [](double run_s) {
    auto record = results::intent_record(config(4), false, "boot-a").as_object();
    record["run_s"] = run_s;
    return results::encode_record(record);
  };
  auto state = results::read_journal(start + timed(12.5) + timed(40.0), "j");
  REQUIRE(state.has_value());
  CHECK(state->run_s == std::optional<double>(40.0));
  CHECK_FALSE(results::read_journal(start, "j")->run_s.has_value());  // an older disktune's
  for (const double bad : {-1.0, 1e12}) {
    state = results::read_journal(start + timed(bad), "j");
    REQUIRE_FALSE(state.has_value());
    CHECK_THAT(state.error().message(), Catch::Contains("journal record 3") && Catch::Contains("run_s out of range"));
  }
  auto record = results::intent_record(config(4), false, "boot-a").as_object();
  record["run_s"] = "abc";
  state = results::read_journal(start + results::encode_record(record), "j");
  REQUIRE_FALSE(state.has_value());
  CHECK_THAT(state.error().message(), Catch::Contains("journal record 3: run_s is not a number"));
}

TEST_CASE("a field of the wrong type is named in words, not by Boost.JSON's source lines", "[results]") {
  // A result record whose median is a string: Boost.JSON's error named value.hpp:2370.
  auto record = results::decode_journal(sample_journal(), "j")->records.back();
  record["median"] = "fast";
  const auto state = results::read_journal(sample_journal() + results::encode_record(record), "j");
  REQUIRE_FALSE(state.has_value());
  INFO(state.error().message());
  CHECK_THAT(state.error().message(), Catch::Contains("journal record 3: "));
  CHECK_THAT(state.error().message(), !Catch::Contains("boost") && !Catch::Contains(".hpp"));
}

TEST_CASE("a journal field of the wrong type or out of range is named, never resumed", "[results]") {
  // The adversary's edits (CRC recomputed): "journal record 8: not exact", "bool required",
  // "unknown trial status: Invalid argument on ...: Invalid argument"; measured_s -1e9, a median
  // of 1e308 and a noise floor of -5 % resumed silently into the report.
  const auto trial_record = results::decode_journal(sample_journal(), "j")->records.back();
  strategies::Baseline baseline;
  baseline.trial = strategies::TrialResult{};
  baseline.trial.status = strategies::TrialStatus::ok;
  baseline.trial.samples = {8.0, 8.0, 8.0};
  baseline.trial.median = 8.0;
  baseline.aa_medians = {8.0, 8.0, 8.0};
  const auto baseline_record = results::result_record(baseline, "boot-a").as_object();
  const std::vector<std::tuple<bool, const char*, boost::json::value, const char*>> edits{
      {false, "samples", "1,2,3", "samples is not an array of numbers"},
      {false, "samples", boost::json::array{-5.0}, "samples out of range"},
      {false, "median", "fast", "median is not a number"},
      {false, "median", 1e308, "median out of range"},
      {false, "measured_s", -1e9, "measured_s out of range"},
      {false, "id", 1.5, "id is not a whole number"},
      {false, "id", -1, "id out of range"},
      {false, "quick", "yes", "quick is not true or false"},
      {false, "status", "great", "status 'great' is not a trial status"},
      {false, "outliers", boost::json::array{1000}, "outliers out of range"},
      {true, "noise_floor_pct", -5.0, "noise_floor_pct out of range"},
      {true, "data_crc32", -1, "data_crc32 out of range"},
      {true, "aa_samples", boost::json::array{}, ""},  // none measured yet: allowed
      // A second adversary: a trial ok at 500 MB/s from no sample; 10^11 s samples in a 0 s
      // trial (its round was announced at 10^12 s); a missing field named.
      {false, "samples", boost::json::array{}, "median out of range (a figure without samples)"},
      {false, "ci_low", 9.0, "ci_low out of range (above ci_high)"},
      {false, "sample_seconds", boost::json::array{1e11, 1e11}, "sample_seconds out of range (longer than measured_s)"},
  };
  for (const auto& [in_baseline, key, value, expected] : edits) {
    auto record = in_baseline ? baseline_record : trial_record;
    record[key] = value;
    const auto state = results::read_journal(sample_journal() + results::encode_record(record), "j");
    INFO(key << " = " << boost::json::serialize(value));
    if (std::string(expected).empty()) {
      CHECK(state.has_value());
      continue;
    }
    REQUIRE_FALSE(state.has_value());
    CHECK_THAT(state.error().message(), Catch::Contains(std::string("journal record 3: ") + expected));
  }
}

TEST_CASE("a missing journal field is named", "[results]") {
  // "journal record 8: a field is missing" named none; a start record's device of 5 read "not an object".
  auto record = results::decode_journal(sample_journal(), "j")->records.back();
  record.erase("median");
  auto state = results::read_journal(sample_journal() + results::encode_record(record), "j");
  REQUIRE_FALSE(state.has_value());
  CHECK_THAT(state.error().message(),
             Catch::Contains("journal record 3: median is missing (written by another disktune version?)"));
  auto start = results::decode_journal(sample_journal(), "j")->records.front();
  start["device"] = 5;
  state = results::read_journal(results::encode_record(start), "j");
  REQUIRE_FALSE(state.has_value());
  CHECK_THAT(state.error().message(), Catch::Contains("journal record 1: device is not an object"));
}
