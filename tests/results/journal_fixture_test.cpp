// SPDX-License-Identifier: GPL-2.0-or-later
// A journal written before the codecs (tests/data/journal/) still reads, and re-encodes to its records.
#include "results/codec/trial_codec.hpp"
#include "results/journal.hpp"

#include <catch2/catch.hpp>

#include <boost/json/value_from.hpp>

#include <fstream>
#include <sstream>
#include <string>

using namespace disktune;
namespace json = boost::json;

namespace {

// `disktune tune sim: --max-trials 8 --journal J --seed 3` by the main branch at 43a5a12.
std::string fixture_text() {
  std::ifstream in(std::string(DISKTUNE_TEST_DATA) + "/journal/sim_seed3_main.journal", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The record with schema 1's score keys under their schema-2 names (median_mib_s -> median,
// ci_low_mib_s, ci_high_mib_s, warmup_mib_s likewise), at any depth: what the codec writes now.
json::value renamed_to_schema2(const json::value& in) {
  if (in.is_array()) {
    json::array out;
    for (const auto& v : in.as_array()) out.push_back(renamed_to_schema2(v));
    return out;
  }
  if (!in.is_object()) return in;
  json::object out;
  for (const auto& [key, value] : in.as_object()) {
    std::string name(key);
    for (const char* old : {"median_mib_s", "ci_low_mib_s", "ci_high_mib_s", "warmup_mib_s"})
      if (name == old) name.resize(name.size() - 6);
    out[name] = renamed_to_schema2(value);
  }
  return out;
}

}  // namespace

TEST_CASE("a journal written by the code before the codecs reads with its meaning", "[results]") {
  const auto decoded = results::decode_journal(fixture_text(), "fixture");
  REQUIRE(decoded.has_value());
  REQUIRE(decoded->records.size() == 21);
  REQUIRE_FALSE(decoded->torn_tail);
  const auto state = results::interpret_journal(*decoded, "fixture");
  REQUIRE(state.has_value());
  REQUIRE(state->finished);
  REQUIRE(state->restored);
  REQUIRE(state->identity.model == "IBM-DJNA-352500");
  REQUIRE(state->tune.baseline.has_value());
  REQUIRE(state->tune.baseline->trial.settings == state->original);
  REQUIRE(state->tune.baseline->trial.status == strategies::TrialStatus::ok);
  REQUIRE(state->tune.baseline->trial.median > 0.0);
  REQUIRE(state->tune.baseline->data_crc32 != 0u);
  REQUIRE(state->tune.baseline->cached_median_mib_s > 0.0);
  REQUIRE(state->tune.baseline->aa_medians.size() == 3);
  REQUIRE(state->tune.results.size() == 8);
  REQUIRE(state->tune.pending.empty());
  REQUIRE(state->tune.rounds.size() == 1);
  REQUIRE(state->tune.rounds.begin()->second.results.size() == state->tune.rounds.begin()->first.first.size());
  REQUIRE(state->tune.rounds.begin()->first.second == 0);  // recorded before round numbers: round 0
}

TEST_CASE("every result record of that journal re-encodes to the same JSON, score keys renamed", "[results]") {
  const auto decoded = results::decode_journal(fixture_text(), "fixture");
  REQUIRE(decoded.has_value());
  const auto state = results::interpret_journal(*decoded, "fixture");
  REQUIRE(state.has_value());
  std::size_t compared = 0;
  for (const auto& record : decoded->records) {
    const auto& boot_id = std::string(record.at("boot_id").as_string());
    if (record.at("type") == "result" && record.at("baseline").as_bool()) {
      json::value expected = renamed_to_schema2(json::value(record));
      // Written since a resume's --time-budget counts the noise's time; older ones read as their trial's.
      expected.as_object()["baseline_measured_s"] = record.at("measured_s");
      REQUIRE(results::result_record(*state->tune.baseline, boot_id) == expected);
      ++compared;
    } else if (record.at("type") == "result") {
      const auto trial = json::value_to<strategies::TrialResult>(json::value(record));
      REQUIRE(results::result_record(trial, boot_id) == renamed_to_schema2(json::value(record)));
      ++compared;
    } else if (record.at("type") == "round_result") {
      const auto& [key, round] = *state->tune.rounds.begin();
      json::value expected = renamed_to_schema2(json::value(record));
      expected.as_object()["round"] = 0;  // written by every round record since extra rounds exist
      REQUIRE(results::round_result_record(key.first, key.second, round.results, round.skipped, boot_id) == expected);
      ++compared;
    }
  }
  REQUIRE(compared == 10);  // the baseline, 8 trials, the confirmation round
}
