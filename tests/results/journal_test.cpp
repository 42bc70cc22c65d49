// SPDX-License-Identifier: GPL-2.0-or-later
// Journal records: round trip, torn last record ignored, damage before it refused, meaning.
#include "results/journal.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;

namespace {

probe::Settings config(std::int64_t multcount) {
  return {{SettingId::multcount, SettingValue(multcount)}, {SettingId::xfermode, SettingValue(std::int64_t{66})}};
}

strategies::TrialResult ok_trial(std::int64_t multcount, double mib_s) {
  strategies::TrialResult t;
  t.settings = config(multcount);
  t.status = strategies::TrialStatus::ok;
  t.samples = {mib_s, mib_s};
  t.median = mib_s;
  return t;
}

std::string sample_journal() {
  results::JournalIdentity id{"sim:", "IBM-DJNA-352500", "GW0", "J51OA30K", 512, "6.1.0", "", ""};
  return results::encode_record(results::start_record(id, "boot-a", "t0", config(0), {})) +
         results::encode_record(results::result_record(strategies::Baseline{{ok_trial(0, 3.8), 100.0, 0xabcdu}, {}, 0.0, 0.0, std::nullopt}, "boot-a")) +
         results::encode_record(results::intent_record(config(16), false, "boot-a")) +
         results::encode_record(results::result_record(ok_trial(16, 8.2), "boot-a")) +
         results::encode_record(results::intent_record(config(8), false, "boot-a"));
}

// The start record's options of an apply journal, as `disktune apply` writes them.
const boost::json::object kApplyOptions{{"command", "apply"}, {"report", "r.json"}};

// The state of a journal's text, which must decode and interpret.
results::JournalState state_of(const std::string& journal) {
  const auto decoded = results::decode_journal(journal, "j");
  REQUIRE(decoded.has_value());
  auto state = results::interpret_journal(*decoded, "j");
  REQUIRE(state.has_value());
  return *state;
}

}  // namespace

TEST_CASE("a journal decodes to its records and its meaning", "[results]") {
  const auto decoded = results::decode_journal(sample_journal(), "j");
  REQUIRE(decoded.has_value());
  REQUIRE(decoded->records.size() == 5);
  REQUIRE_FALSE(decoded->torn_tail);
  const auto state = results::interpret_journal(*decoded, "j");
  REQUIRE(state.has_value());
  REQUIRE(state->identity.model == "IBM-DJNA-352500");
  REQUIRE(state->original == config(0));
  REQUIRE(state->tune.baseline->trial.median == 3.8);
  REQUIRE(state->tune.baseline->data_crc32 == 0xabcdu);
  REQUIRE(state->tune.results.at({config(16), false}).median == 8.2);
  REQUIRE(state->tune.pending.at({config(8), false}).attempts == 1);
  REQUIRE(state->tune.pending.at({config(8), false}).last_boot_id == "boot-a");
  REQUIRE_FALSE(state->finished);
}

TEST_CASE("a torn last record is ignored, never misread", "[results]") {
  const std::string full = sample_journal();
  // Cut the last record anywhere: without its newline, or with a corrupted byte.
  for (std::size_t cut = 1; cut < 40; ++cut) {
    const auto decoded = results::decode_journal(full.substr(0, full.size() - cut), "j");
    REQUIRE(decoded.has_value());
    REQUIRE(decoded->records.size() == 4);
    REQUIRE(decoded->torn_tail);
  }
  std::string flipped = full;
  flipped[flipped.size() - 5] ^= 0x01;
  const auto decoded = results::decode_journal(flipped, "j");
  REQUIRE(decoded.has_value());
  REQUIRE(decoded->records.size() == 4);
}

TEST_CASE("damage before the last record is refused with the record number", "[results]") {
  std::string damaged = sample_journal();
  damaged[30] ^= 0x01;  // inside the first record's JSON
  const auto decoded = results::decode_journal(damaged, "j.journal");
  REQUIRE_FALSE(decoded.has_value());
  REQUIRE(decoded.error().message().find("journal record 1") != std::string::npos);
  REQUIRE(decoded.error().path == "j.journal");
}

TEST_CASE("empty, binary and non-journal text get clear errors", "[results]") {
  REQUIRE_FALSE(results::interpret_journal(*results::decode_journal("", "j"), "j").has_value());
  const std::string binary("\x00\xff\x13\n\x01\x02\n", 7);
  REQUIRE_FALSE(results::decode_journal(binary, "j").has_value());
  const auto torn_only = results::decode_journal("DTJ1 5 00000000 {", "j");
  REQUIRE(torn_only.has_value());
  REQUIRE(torn_only->records.empty());
}

TEST_CASE("a torn tail's valid_bytes end at the last complete record", "[results]") {
  const std::string full = sample_journal();
  const auto whole = results::decode_journal(full, "j");
  REQUIRE(whole->valid_bytes == full.size());
  const std::string torn = full + "DTJ1 99 0000";
  const auto decoded = results::decode_journal(torn, "j");
  REQUIRE(decoded->torn_tail);
  REQUIRE(decoded->valid_bytes == full.size());
}

TEST_CASE("a confirmation round is pending after its intent and done after its result", "[results]") {
  const std::vector<probe::Settings> contenders{config(0), config(16)};
  const std::string intent = results::encode_record(results::round_intent_record(contenders, 0, "boot-a"));
  const std::string text = sample_journal() + intent + intent;
  auto state = results::interpret_journal(*results::decode_journal(text, "j"), "j");
  REQUIRE(state.has_value());
  REQUIRE(state->tune.pending_rounds.at({contenders, 0}).attempts == 2);
  REQUIRE(state->tune.rounds.empty());
  const std::string done = text + results::encode_record(results::round_result_record(
                                      contenders, 0, {ok_trial(0, 3.7), ok_trial(16, 8.0)}, "", "boot-a"));
  state = results::interpret_journal(*results::decode_journal(done, "j"), "j");
  REQUIRE(state.has_value());
  REQUIRE(state->tune.pending_rounds.empty());
  REQUIRE(state->tune.rounds.at({contenders, 0}).results.size() == 2);
  REQUIRE(state->tune.rounds.at({contenders, 0}).results[1].median == 8.0);
  REQUIRE(state->tune.rounds.at({contenders, 0}).skipped.empty());
  // Another set of contenders is another round; so is an extra round of the same contenders.
  REQUIRE(state->tune.rounds.count({{config(0), config(8)}, 0}) == 0);
  REQUIRE(state->tune.rounds.count({contenders, 1}) == 0);
  const std::string extra = done + results::encode_record(results::round_result_record(
                                       contenders, 1, {ok_trial(0, 3.9), ok_trial(16, 7.0)}, "", "boot-a"));
  state = results::interpret_journal(*results::decode_journal(extra, "j"), "j");
  REQUIRE(state.has_value());
  REQUIRE(state->tune.rounds.at({contenders, 0}).results[1].median == 8.0);  // not overwritten
  REQUIRE(state->tune.rounds.at({contenders, 1}).results[1].median == 7.0);
}

TEST_CASE("a confirmation unit's intent names what was in flight in each attempt at its round", "[results]") {
  const std::vector<probe::Settings> contenders{config(0), config(16)};
  auto rec = [](const boost::json::value& v) { return results::encode_record(v); };
  // Two attempts: the first died in finalist 1's unit of pass 2, the second before any unit.
  const std::string text = sample_journal() + rec(results::round_intent_record(contenders, 0, "boot-a")) +
                           rec(results::unit_intent_record(contenders, 0, 1, 0, "boot-a")) +
                           rec(results::unit_intent_record(contenders, 0, 2, 1, "boot-a")) +
                           rec(results::round_intent_record(contenders, 0, "boot-a"));
  const auto state = results::interpret_journal(*results::decode_journal(text, "j"), "j");
  REQUIRE(state.has_value());
  const auto& pending = state->tune.pending_rounds.at({contenders, 0});
  REQUIRE(pending.attempts == 2);
  REQUIRE(pending.in_flight == std::vector<std::string>{"multcount=16 (pass 2)", ""});
  // A unit of no round, or of no contender, is damage, never a guess.
  const std::string stray = sample_journal() + rec(results::unit_intent_record(contenders, 0, 1, 0, "boot-a"));
  REQUIRE_FALSE(results::interpret_journal(*results::decode_journal(stray, "j"), "j").has_value());
  const std::string round = sample_journal() + rec(results::round_intent_record(contenders, 0, "boot-a"));
  const std::string beyond = round + rec(results::unit_intent_record(contenders, 0, 1, 2, "boot-a"));
  REQUIRE_FALSE(results::interpret_journal(*results::decode_journal(beyond, "j"), "j").has_value());
  REQUIRE_FALSE(results::interpret_journal(*results::decode_journal(round + rec(results::unit_intent_record(
                                                                               contenders, 0, 0, 1, "boot-a")),
                                                                    "j"),
                                           "j")
                    .has_value());  // pass 0: passes count from 1
  auto roundless = results::unit_intent_record(contenders, 0, 1, 1, "boot-a");
  roundless.as_object().erase("round");
  REQUIRE_FALSE(results::interpret_journal(*results::decode_journal(round + rec(roundless), "j"), "j").has_value());
}

TEST_CASE("the baseline's trials are in flight from their intent until the baseline's record", "[results]") {
  results::JournalIdentity id{"sim:", "IBM-DJNA-352500", "GW0", "J51OA30K", 512, "6.1.0", "", ""};
  auto rec = [](const boost::json::value& v) { return results::encode_record(v); };
  using strategies::TrialKind;
  // Died in the second noise repeat, then again in the first trial of the next attempt.
  const std::string text = rec(results::start_record(id, "boot-a", "t0", config(0), {})) +
                           rec(results::baseline_intent_record(TrialKind::baseline, 0, "boot-a")) +
                           rec(results::baseline_intent_record(TrialKind::baseline_repeat, 1, "boot-a")) +
                           rec(results::baseline_intent_record(TrialKind::baseline_repeat, 2, "boot-a"));
  auto state = results::interpret_journal(*results::decode_journal(text, "j"), "j");
  REQUIRE(state.has_value());
  REQUIRE(state->tune.baseline_in_flight);
  CHECK(state->tune.baseline_in_flight->attempts == 1);
  CHECK(state->tune.baseline_in_flight->what == "noise repeat 2");
  const std::string again = text + rec(results::baseline_intent_record(TrialKind::baseline, 0, "boot-b"));
  state = results::interpret_journal(*results::decode_journal(again, "j"), "j");
  REQUIRE(state.has_value());
  CHECK(state->tune.baseline_in_flight->attempts == 2);
  CHECK(state->tune.baseline_in_flight->restarts == 1);  // the first attempt died in boot-a, the next began in boot-b
  CHECK(state->tune.baseline_in_flight->last_boot_id == "boot-b");
  CHECK(state->tune.baseline_in_flight->what == "the baseline's first trial");
  const std::string measured =
      again + rec(results::result_record(strategies::Baseline{{ok_trial(0, 3.8), 100.0, 0xabcdu}, {}, 0.0, 0.0, std::nullopt},
                                         "boot-b"));
  state = results::interpret_journal(*results::decode_journal(measured, "j"), "j");
  REQUIRE(state.has_value());
  CHECK_FALSE(state->tune.baseline_in_flight);
  // A kind that is no trial of the settings as found, or an index its kind cannot have, is damage.
  auto bad = results::baseline_intent_record(TrialKind::baseline, 0, "boot-a");
  bad.as_object()["kind"] = "search";
  REQUIRE_FALSE(results::interpret_journal(*results::decode_journal(text + rec(bad), "j"), "j").has_value());
  for (const auto& [kind, index] : std::vector<std::pair<TrialKind, int>>{
           {TrialKind::baseline, 2}, {TrialKind::baseline_check, 1}, {TrialKind::baseline_repeat, 0},
           {TrialKind::baseline_repeat, -1}, {TrialKind::baseline_repeat, 100000}}) {
    CAPTURE(strategies::to_string(kind), index);
    const auto odd = rec(results::baseline_intent_record(kind, index, "boot-a"));
    REQUIRE_FALSE(results::interpret_journal(*results::decode_journal(text + odd, "j"), "j").has_value());
  }
}

TEST_CASE("a restore record leaves the journal unfinished, its quarantine intact", "[results]") {
  const std::string text = sample_journal() + results::encode_record(results::restore_record("t1", "boot-a"));
  const auto state = results::interpret_journal(*results::decode_journal(text, "j"), "j");
  REQUIRE(state.has_value());
  REQUIRE(state->restores == 1);
  REQUIRE_FALSE(state->finished);
  REQUIRE(state->tune.pending.at({config(8), false}).attempts == 1);
}

// apply and the killed-tune note took any restore record as the settings being back: a resumed
// run killed in a trial after a restore left a trial's settings that nothing owed a restore for.
TEST_CASE("the settings are back only after a restore (or an end saying restored) that follows the last trial begun",
          "[results]") {
  std::string text = sample_journal();  // its last record a trial's intent
  CHECK_FALSE(state_of(text).settings_back);
  text += results::encode_record(results::restore_record("t1", "boot-a"));
  CHECK(state_of(text).settings_back);
  text += results::encode_record(results::result_record(ok_trial(4, 5.0), "boot-a"));  // no settings of its own
  CHECK(state_of(text).settings_back);
  text += results::encode_record(results::intent_record(config(4), false, "boot-a"));  // a resumed run's trial
  CHECK_FALSE(state_of(text).settings_back);
  CHECK(state_of(text).restores == 1);
  const std::string round = text + results::encode_record(results::restore_record("t2", "boot-a")) +
                            results::encode_record(results::round_intent_record({config(0), config(4)}, 0, "boot-a"));
  CHECK_FALSE(state_of(round).settings_back);
  CHECK_FALSE(state_of(text + results::encode_record(results::end_record(false, "t3", "boot-a"))).settings_back);
  CHECK(state_of(text + results::encode_record(results::end_record(true, "t3", "boot-a"))).settings_back);
  // An apply journal: back after the restore that follows its apply.
  results::JournalIdentity id{"/dev/loop3", "", "", "", 64u << 20, "6.18", "", ""};
  std::string apply = results::encode_record(results::start_record(id, "boot-a", "t0", config(0), kApplyOptions)) +
                      results::encode_record(results::apply_record(config(16), true, "r.json", "t1", "boot-a"));
  CHECK_FALSE(state_of(apply).settings_back);
  CHECK(state_of(apply + results::encode_record(results::restore_record("t2", "boot-a"))).settings_back);
}

TEST_CASE("the start record alone is read when later records are damaged", "[results]") {
  std::string damaged = sample_journal();
  const auto second = damaged.find('\n') + 1;
  damaged[second + 40] ^= 0x01;  // inside the second record
  REQUIRE_FALSE(results::decode_journal(damaged, "j").has_value());
  const auto start = results::interpret_start(damaged, "j");
  REQUIRE(start.has_value());
  REQUIRE(start->original == config(0));
  REQUIRE(start->identity.model == "IBM-DJNA-352500");
  REQUIRE_FALSE(start->tune.baseline.has_value());
  std::string bad_start = sample_journal();
  bad_start[30] ^= 0x01;
  REQUIRE_FALSE(results::interpret_start(bad_start, "j").has_value());
  REQUIRE_FALSE(results::interpret_start("DTJ1 5 00000000 {", "j").has_value());
}

TEST_CASE("the start record keeps the original scheduler's tunables; a journal without them has none", "[results]") {
  results::JournalIdentity id{"/dev/loop0", "", "", "", 64u << 20, "6.18.0", "", ""};
  const probe::SchedulerTunables tunables{
      "mq-deadline", {{"iosched/read_expire", "123"}, {"iosched/fifo_batch", "7"}, {"iosched/front_merges", "1"}}};
  const auto with = results::interpret_start(
      results::encode_record(results::start_record(id, "boot-a", "t0", config(0), {}, tunables)), "j");
  REQUIRE(with.has_value());
  REQUIRE(with->original_tunables == tunables);
  REQUIRE(with->original == config(0));
  // Written before tunables were kept (or on a device without any): nothing recorded.
  const auto without = results::interpret_start(results::encode_record(results::start_record(id, "boot-a", "t0", config(0), {})), "j");
  REQUIRE(without.has_value());
  REQUIRE(without->original_tunables == probe::SchedulerTunables{});
  REQUIRE(results::start_record(id, "b", "t", config(0), {}).as_object().if_contains("scheduler_tunables") == nullptr);
}

TEST_CASE("a start record's tunables must be the original scheduler's own file names, never a path", "[results]") {
  // Restore writes each name under queue/ as root: a crafted journal must not reach any other file.
  results::JournalIdentity id{"/dev/loop0", "", "", "", 64u << 20, "6.18.0", "", ""};
  probe::Settings original = config(0);
  original[SettingId::scheduler] = SettingValue(std::string("mq-deadline"));
  auto start_with = [&](probe::SchedulerTunables tunables) {
    return results::interpret_start(
        results::encode_record(results::start_record(id, "boot-a", "t0", original, {}, tunables)), "j");
  };
  REQUIRE(start_with({"mq-deadline", {{"iosched/read_expire", "200"}}}).has_value());
  for (const std::string name : {"iosched/../../../../tmp/x", "iosched/../read_ahead_kb", "read_ahead_kb",
                                 "/etc/passwd", "iosched/", "iosched/a/b"}) {
    const auto refused = start_with({"mq-deadline", {{name, "1"}}});
    INFO(name);
    REQUIRE_FALSE(refused.has_value());
    REQUIRE_THAT(refused.error().message(), Catch::Contains("is no scheduler tunable"));
  }
  const auto other = start_with({"kyber", {{"iosched/read_lat_nsec", "1234000"}}});
  REQUIRE_FALSE(other.has_value());
  REQUIRE_THAT(other.error().message(), Catch::Contains("recorded for kyber, but the original scheduler is mq-deadline"));
  REQUIRE_FALSE(start_with({"../x", {}}).has_value());
}

TEST_CASE("an apply journal says whether its apply is in effect: apply records, then a restore", "[results]") {
  results::JournalIdentity id{"/dev/loop3", "", "", "", 64u << 20, "6.18", "", ""};
  std::string text = results::encode_record(results::start_record(id, "boot-a", "t0", config(0), kApplyOptions));
  REQUIRE(state_of(text).kind == results::JournalKind::apply);
  REQUIRE_FALSE(state_of(text).apply.in_effect);
  // Interrupted between intent and done: in effect (some of it may be written), not done.
  text += results::encode_record(results::apply_record(config(16), false, "r.json", "t1", "boot-a"));
  REQUIRE(state_of(text).apply.in_effect);
  REQUIRE_FALSE(state_of(text).apply.done);
  text += results::encode_record(results::apply_record(config(16), true, "r.json", "t2", "boot-a"));
  auto applied = state_of(text);
  REQUIRE(applied.apply.in_effect);
  REQUIRE(applied.apply.done);
  REQUIRE(applied.apply.applied == config(16));
  REQUIRE(applied.apply.at == "t2");
  REQUIRE(applied.original == config(0));
  text += results::encode_record(results::restore_record("t3", "boot-a"));
  const auto restored = state_of(text);
  REQUIRE_FALSE(restored.apply.in_effect);
  REQUIRE(restored.restored_at == "t3");
}

TEST_CASE("an apply record keeps where the kernel log stood; one without it reads as no mark", "[results]") {
  results::JournalIdentity id{"/dev/loop3", "", "", "", 64u << 20, "6.18", "", ""};
  const std::string start = results::encode_record(results::start_record(id, "boot-a", "t0", config(0), kApplyOptions));
  const results::KernelLogMark mark{3344, 63081206663};
  const auto marked = state_of(start + results::encode_record(results::apply_record(config(16), true, "r.json", "t1",
                                                                                    "boot-a", mark)));
  REQUIRE(marked.apply.kernel_log == std::optional(mark));
  // The apply record as disktune wrote it before the mark existed: still an apply in effect.
  const boost::json::object old{{"type", "apply"}, {"boot_id", "boot-a"}, {"settings", results::settings_to_json(config(16))},
                                {"done", true}, {"report", "r.json"}, {"at", "t1"}};
  const auto unmarked = state_of(start + results::encode_record(old));
  REQUIRE(unmarked.apply.in_effect);
  REQUIRE(unmarked.apply.at == "t1");
  REQUIRE_FALSE(unmarked.apply.kernel_log.has_value());
  // A damaged mark is an error naming the record, not a silent "no mark".
  boost::json::object bad = old;
  bad["kernel_log"] = boost::json::object{{"seq", "many"}};
  const auto decoded = results::decode_journal(start + results::encode_record(bad), "j");
  REQUIRE_FALSE(results::interpret_journal(*decoded, "j").has_value());
}

TEST_CASE("each kind of journal holds only its own records; the kind comes from the start record", "[results]") {
  results::JournalIdentity id{"/dev/loop3", "", "", "", 64u << 20, "6.18", "", ""};
  const std::string tune = results::encode_record(results::start_record(id, "boot-a", "t0", config(0), {}));
  const std::string apply = results::encode_record(results::start_record(id, "boot-a", "t0", config(0), kApplyOptions));
  CHECK(state_of(tune).kind == results::JournalKind::tune);
  CHECK(state_of(apply).kind == results::JournalKind::apply);
  const auto refused = [](const std::string& text) {
    const auto decoded = results::decode_journal(text, "j");
    REQUIRE(decoded.has_value());
    const auto state = results::interpret_journal(*decoded, "j");
    REQUIRE_FALSE(state.has_value());
    return state.error().message();
  };
  const std::string applied = results::encode_record(results::apply_record(config(16), true, "r.json", "t1", "boot-a"));
  CHECK_THAT(refused(tune + applied), Catch::Contains("an 'apply' record in a tune journal"));
  const std::string trial = results::encode_record(results::intent_record(config(16), false, "boot-a"));
  CHECK_THAT(refused(apply + trial), Catch::Contains("a tune's 'intent' record in an apply journal"));
  // Both kinds take restore and end records.
  const std::string restored = results::encode_record(results::restore_record("t3", "boot-a"));
  CHECK(state_of(tune + restored).restores == 1);
  CHECK(state_of(apply + restored).restores == 1);
}

// A run a signal stopped puts its settings back and says so ("stopped"): the attempt it was in
// did not die. Counted as a death, two stops skipped the confirmation round or quarantined a value.
TEST_CASE("a signal stop's restore record takes back the attempt in flight; a plain restore does not", "[results]") {
  const auto stopped = results::encode_record(results::restore_record("t1", "boot-a", true));
  const auto plain = results::encode_record(results::restore_record("t1", "boot-a"));
  // sample_journal ends in a trial's intent (multcount 8).
  CHECK(state_of(sample_journal() + plain).tune.pending.at({config(8), false}).attempts == 1);
  CHECK(state_of(sample_journal() + stopped).tune.pending.empty());
  // The second of two attempts: one death stays.
  const auto twice = sample_journal() + stopped + results::encode_record(results::intent_record(config(8), false, "boot-a"));
  CHECK(state_of(twice + stopped).tune.pending.empty());
  CHECK(state_of(twice).tune.pending.at({config(8), false}).attempts == 1);
  // A round's call: taken back with the unit it was in.
  const std::vector<probe::Settings> contenders{config(0), config(16)};
  const auto round = sample_journal() + results::encode_record(results::round_intent_record(contenders, 1, "boot-a")) +
                     results::encode_record(results::unit_intent_record(contenders, 1, 1, 1, "boot-a"));
  CHECK(state_of(round + plain).tune.pending_rounds.size() == 1);
  CHECK(state_of(round + stopped).tune.pending_rounds.empty());
  // The baseline's trials.
  results::JournalIdentity id{"sim:", "IBM-DJNA-352500", "GW0", "J51OA30K", 512, "6.1.0", "", ""};
  const auto baseline = results::encode_record(results::start_record(id, "boot-a", "t0", config(0), {})) +
                        results::encode_record(results::baseline_intent_record(strategies::TrialKind::baseline, 0, "boot-a"));
  CHECK(state_of(baseline + plain).tune.baseline_in_flight.has_value());
  CHECK_FALSE(state_of(baseline + stopped).tune.baseline_in_flight.has_value());
  // Nothing in flight (the last trial had its result): nothing taken back.
  const auto done = sample_journal() + results::encode_record(results::result_record(ok_trial(8, 7.0), "boot-a"));
  CHECK(state_of(done + stopped).tune.results.size() == 2);
}
