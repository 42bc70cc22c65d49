// SPDX-License-Identifier: GPL-2.0-or-later
// The resume line's account: a baseline measured is said (it read "0 trials done" before), and
// what was in flight is named by kind.
#include "tuner/journal/resume_summary.hpp"

#include <catch2/catch.hpp>

using namespace disktune;

namespace {

results::TuneRecords with_baseline() {
  results::TuneRecords records;
  records.baseline = strategies::Baseline{};
  return records;
}

std::pair<probe::Settings, bool> key(int multcount) {
  return {probe::Settings{{probe::SettingId::multcount, probe::SettingValue(multcount)}}, false};
}

}  // namespace

TEST_CASE("resume summary: nothing, the baseline, trials and rounds, and what was in flight") {
  results::TuneRecords records;
  CHECK(tuner::resume_summary(records) == "nothing measured yet");
  records.baseline_in_flight = strategies::BaselineInFlight{};
  CHECK(tuner::resume_summary(records) == "nothing measured yet; the baseline in flight when it stopped");

  records = with_baseline();
  CHECK(tuner::resume_summary(records) == "the baseline measured");
  records.pending[key(8)] = results::PendingTrial{};
  CHECK(tuner::resume_summary(records) == "the baseline measured; 1 trial in flight when it stopped");

  records.results[key(16)] = strategies::TrialResult{};
  records.results[key(4)] = strategies::TrialResult{};
  CHECK(tuner::resume_summary(records) == "the baseline and 2 trials measured; 1 trial in flight when it stopped");

  records.pending.clear();
  records.rounds[results::RoundKey{}] = results::RoundRecord{};
  records.pending_rounds[results::RoundKey{{}, 1}] = results::PendingTrial{};
  // The round's records are its calls ("confirmation rounds" read as the round's 6 rounds).
  CHECK(tuner::resume_summary(records) ==
        "the baseline, 2 trials and part of the confirmation round measured; the confirmation round in flight when it "
        "stopped");
}
