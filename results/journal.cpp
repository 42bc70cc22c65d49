// SPDX-License-Identifier: GPL-2.0-or-later
// Journal records: encoding with length and CRC-32, decoding with torn-tail detection, meaning.
#include "results/journal.hpp"

#include "results/codec/json_fields.hpp"
#include "results/codec/trial_codec.hpp"
#include "results/codec/tunables_codec.hpp"
#include "results/json_report.hpp"
#include "strategies/evaluator.hpp"

#include <boost/crc.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace disktune::results {
namespace {

namespace json = boost::json;

constexpr std::string_view kMagic = "DTJ1";

std::uint32_t crc32_of(std::string_view text) {
  boost::crc_32_type crc;
  crc.process_bytes(text.data(), text.size());
  return crc.checksum();
}

probe::Error bad(const std::string& name, const std::string& what) {
  return probe::Error{std::make_error_code(std::errc::invalid_argument), what, name};
}

// One line without its newline: the JSON object, or why it is not a valid record.
std::optional<json::object> decode_line(std::string_view line, std::string& why) {
  auto field = [&line]() {
    const auto space = line.find(' ');
    const auto token = line.substr(0, space);
    line = space == std::string_view::npos ? std::string_view{} : line.substr(space + 1);
    return token;
  };
  if (field() != kMagic) return why = "not a journal record", std::nullopt;
  const auto length_text = field();
  const auto crc_text = field();
  std::size_t length = 0;
  std::uint32_t crc = 0;
  if (std::from_chars(length_text.data(), length_text.data() + length_text.size(), length).ec != std::errc{} ||
      std::from_chars(crc_text.data(), crc_text.data() + crc_text.size(), crc, 16).ec != std::errc{})
    return why = "bad length or checksum field", std::nullopt;
  if (line.size() != length) return why = "length does not match", std::nullopt;
  if (crc32_of(line) != crc) return why = "checksum does not match", std::nullopt;
  boost::system::error_code ec;
  auto value = json::parse(line, ec);
  if (ec || !value.is_object()) return why = "not a JSON object", std::nullopt;
  return std::move(value.as_object());
}

std::vector<probe::Settings> contenders_from_json(const json::value& v) {
  std::vector<probe::Settings> out;
  if (!v.is_array()) throw std::invalid_argument("contenders is not an array");
  for (const auto& x : v.get_array()) {
    auto settings = settings_from_json(x);
    if (!settings) throw std::invalid_argument(settings.error().reason());
    out.push_back(std::move(*settings));
  }
  return out;
}

// "the baseline (pass 2)" or "read_ahead_kb=0 (pass 1)": unit `unit` of `contenders`.
std::string unit_name(const std::vector<probe::Settings>& contenders, std::size_t unit, std::int64_t pass) {
  if (unit >= contenders.size()) throw std::invalid_argument("unit " + std::to_string(unit) + " of no contender");
  if (pass < 1 || pass > 1000) throw std::invalid_argument("unit_intent: pass " + std::to_string(pass));
  const auto changes = strategies::changes_from(contenders.front(), contenders[unit]);
  return (unit == 0 ? std::string("the baseline") : probe::format_settings(changes)) + " (pass " +
         std::to_string(pass) + ")";
}

void apply_round_record(JournalState& state, const json::object& record, const std::string& boot_id) {
  const auto contenders = contenders_from_json(record.at("contenders"));
  const auto* number = record.if_contains("round");  // absent before extra rounds existed
  const RoundKey key{contenders, number ? static_cast<int>(count_of(*number, "round", 1000)) : 0};
  const auto type = text_field(record, "type");
  if (type == "round_intent") {
    auto& pending = state.tune.pending_rounds[key];
    pending.config = contenders.empty() ? probe::Settings{} : contenders.front();
    ++pending.attempts;
    pending.last_boot_id = boot_id;
    pending.in_flight.emplace_back();
    state.tune.last_begun = {TuneRecords::Begun::Kind::round, {}, key};
    return;
  }
  if (type == "unit_intent") {
    if (!number) throw std::invalid_argument("a unit_intent record without its round");
    auto pending = state.tune.pending_rounds.find(key);
    if (pending == state.tune.pending_rounds.end() || pending->second.in_flight.empty())
      throw std::invalid_argument("a unit_intent record outside its round");
    pending->second.in_flight.back() = unit_name(contenders, count_field<std::size_t>(record, "unit"),
                                                 count_field<std::int64_t>(record, "pass"));
    return;
  }
  RoundRecord round;
  round.skipped = text_field(record, "skipped");
  for (const auto& result : array_field(record, "results", "trials"))
    round.results.push_back(json::value_to<strategies::TrialResult>(result));
  state.tune.pending_rounds.erase(key);
  state.tune.rounds[key] = std::move(round);
  state.tune.last_begun = {};
}

// A signal stop's restore record: the attempt in flight when it came did not die; its intent is
// taken back (a stop in the round's second call, or twice in one trial, counted as two deaths).
void take_back_last_begun(TuneRecords& tune) {
  using Kind = TuneRecords::Begun::Kind;
  const auto& begun = tune.last_begun;
  if (begun.kind == Kind::trial) {
    if (auto it = tune.pending.find(begun.trial); it != tune.pending.end() && --it->second.attempts <= 0)
      tune.pending.erase(it);
  } else if (begun.kind == Kind::round) {
    if (auto it = tune.pending_rounds.find(begun.round); it != tune.pending_rounds.end()) {
      if (!it->second.in_flight.empty()) it->second.in_flight.pop_back();
      if (--it->second.attempts <= 0) tune.pending_rounds.erase(it);
    }
  } else if (begun.kind == Kind::baseline && tune.baseline_in_flight && --tune.baseline_in_flight->attempts <= 0) {
    tune.baseline_in_flight.reset();
  }
  tune.last_begun = {};
}

// A baseline_intent record: a new attempt at the baseline when its index is 0.
void apply_baseline_intent(JournalState& state, const json::object& record) {
  const std::string name = text_field(record, "kind");
  const auto kind = strategies::trial_kind_from(name);
  if (!kind || *kind == strategies::TrialKind::search || *kind == strategies::TrialKind::confirmation_unit)
    throw std::invalid_argument("no trial of the settings as found: '" + name + "'");
  const auto index = count_field<std::int64_t>(record, "index");
  // A first trial or a check is index 0; a noise repeat 1.. (a re-measured noise continues the count).
  const bool repeat = *kind == strategies::TrialKind::baseline_repeat;
  if (repeat ? index < 1 || index > 1000 : index != 0)
    throw std::invalid_argument("baseline_intent: index " + std::to_string(index) + " for a " + std::string(name) + " trial");
  const std::string boot_id = text_field(record, "boot_id");
  auto& in_flight = state.tune.baseline_in_flight;
  if (!in_flight) in_flight = strategies::BaselineInFlight{0, 0, boot_id, ""};
  if (index == 0) {  // a new attempt: the last one died, in another boot when the machine restarted
    if (in_flight->attempts > 0 && in_flight->last_boot_id != boot_id) ++in_flight->restarts;
    ++in_flight->attempts;
  }
  in_flight->last_boot_id = boot_id;
  in_flight->what = strategies::baseline_trial_name(*kind, static_cast<int>(index));
  state.tune.last_begun = {TuneRecords::Begun::Kind::baseline, {}, {}};
}

// An apply record's "kernel_log" (absent in journals written before it: nullopt); throws
// std::exception on a bad field.
std::optional<KernelLogMark> kernel_log_mark_of(const json::object& record) {
  if (!record.contains("kernel_log")) return std::nullopt;
  const auto& mark = object_field(record, "kernel_log");
  return KernelLogMark{count_field<std::uint64_t>(mark, "seq"), count_field<std::uint64_t>(mark, "monotonic_usec")};
}

// A record of `type` belongs in a journal of `kind`; throws std::invalid_argument when not.
void check_kind(JournalKind kind, std::string_view type) {
  const bool tune_only = type == "intent" || type == "result" || type == "round_intent" || type == "round_result" ||
                         type == "unit_intent" || type == "baseline_intent";
  if (kind == JournalKind::apply && tune_only)
    throw std::invalid_argument("a tune's '" + std::string(type) + "' record in an apply journal");
  if (kind == JournalKind::tune && type == "apply") throw std::invalid_argument("an 'apply' record in a tune journal");
}

// Apply one record to the state; throws std::exception (caught by the caller) on a missing field.
void apply_record(JournalState& state, const json::object& record) {
  const std::string type = text_field(record, "type");
  const std::string boot_id = text_field(record, "boot_id");
  check_kind(state.kind, type);
  // Each of these may leave other settings than the originals on the device.
  if (type == "intent" || type == "round_intent" || type == "unit_intent" || type == "apply") state.settings_back = false;
  if (type == "intent") {
    auto config = settings_from_json(record.at("settings"));
    if (!config) throw std::invalid_argument(config.error().reason());
    const std::pair key{*config, flag_field(record, "quick")};
    auto& pending = state.tune.pending[key];
    pending.config = *config;
    ++pending.attempts;
    pending.last_boot_id = boot_id;
    state.tune.last_begun = {TuneRecords::Begun::Kind::trial, key, {}};
  } else if (type == "result") {
    // The codecs (results/codec/trial_codec.hpp) throw on a missing or bad field.
    if (flag_field(record, "baseline")) {
      state.tune.baseline = json::value_to<strategies::Baseline>(json::value(record));
      state.tune.baseline_in_flight.reset();
      state.tune.last_begun = {};
    } else {
      auto trial = json::value_to<strategies::TrialResult>(json::value(record));
      const std::pair key{trial.settings, trial.quick};
      state.tune.pending.erase(key);
      state.tune.results[key] = std::move(trial);
      state.tune.last_begun = {};
    }
  } else if (type == "baseline_intent") {
    apply_baseline_intent(state, record);
  } else if (type == "round_intent" || type == "round_result" || type == "unit_intent") {
    apply_round_record(state, record, boot_id);
  } else if (type == "restore") {
    ++state.restores;
    state.settings_back = true;
    if (const auto* stopped = record.if_contains("stopped"); stopped && stopped->is_bool() && stopped->as_bool())
      take_back_last_begun(state.tune);
    state.apply.in_effect = false;
    state.restored_at = text_field(record, "restored_at");
  } else if (type == "apply") {
    auto config = settings_from_json(record.at("settings"));
    if (!config) throw std::invalid_argument(config.error().reason());
    state.apply.applied = std::move(*config);
    state.apply.done = flag_field(record, "done");
    state.apply.in_effect = true;  // an interrupted apply may have written some of it
    if (state.apply.done) {
      state.apply.at = text_field(record, "at");
      state.apply.report = text_field(record, "report");
      state.apply.boot_id = boot_id;
      state.apply.kernel_log = kernel_log_mark_of(record);
    }
  } else if (type == "end") {
    state.finished = true;
    state.restored = state.settings_back = flag_field(record, "restored");
  } else {
    throw std::invalid_argument("unknown record type '" + type + "'");
  }
}

}  // namespace

bool starts_like_record(std::string_view text) {
  const std::string opening = std::string(kMagic) + ' ';
  const std::size_t n = std::min(text.size(), opening.size());
  return text.substr(0, n) == std::string_view(opening).substr(0, n);
}

std::string encode_record(const json::value& record) {
  const std::string body = json::serialize(record);
  char crc[9];
  std::snprintf(crc, sizeof crc, "%08x", crc32_of(body));
  return std::string(kMagic) + ' ' + std::to_string(body.size()) + ' ' + crc + ' ' + body + '\n';
}

probe::Result<DecodedJournal> decode_journal(std::string_view text, const std::string& name) {
  DecodedJournal journal;
  std::size_t line_number = 0;
  const std::size_t total = text.size();
  while (!text.empty()) {
    ++line_number;
    const auto newline = text.find('\n');
    const bool complete = newline != std::string_view::npos;
    const auto line = text.substr(0, complete ? newline : text.size());
    text = complete ? text.substr(newline + 1) : std::string_view{};
    std::string why;
    auto record = complete ? decode_line(line, why) : std::nullopt;
    if (record) {
      journal.records.push_back(std::move(*record));
      journal.valid_bytes = total - text.size();
      continue;
    }
    // Only the last record can be torn by a crash; anything earlier is damage.
    if (!text.empty())
      return bad(name, "journal record " + std::to_string(line_number) + ": " + why);
    journal.torn_tail = true;
  }
  return journal;
}

namespace {

// The start record's fields into `state`; throws std::exception on a missing or bad field.
void apply_start(JournalState& state, const json::object& start) {
  if (text_field(start, "type") != "start") throw std::invalid_argument("not a start record");
  state.identity = identity_from_json(object_field(start, "device"));
  state.boot_id = text_field(start, "boot_id");
  auto original = settings_from_json(start.at("original"));
  if (!original) throw std::invalid_argument(original.error().op);
  state.original = std::move(*original);
  const auto* tunables = start.if_contains("scheduler_tunables");  // absent: written before they were kept
  state.original_tunables = tunables ? tunables_from_json(tunables->as_object()) : probe::SchedulerTunables{};
  // The tunables are the original scheduler's: any other's would never be written back.
  const auto scheduler = state.original.find(probe::SettingId::scheduler);
  if (!state.original_tunables.scheduler.empty() && scheduler != state.original.end() &&
      probe::format_value(probe::SettingId::scheduler, scheduler->second) != state.original_tunables.scheduler)
    throw std::invalid_argument("scheduler_tunables: recorded for " + state.original_tunables.scheduler +
                                ", but the original scheduler is " +
                                probe::format_value(probe::SettingId::scheduler, scheduler->second));
  state.options = start.at("options").as_object();
  const auto* command = state.options.if_contains("command");
  state.kind = command && command->is_string() && command->as_string() == "apply" ? JournalKind::apply : JournalKind::tune;
}

}  // namespace

probe::Result<JournalState> interpret_start(std::string_view text, const std::string& name) {
  const auto newline = text.find('\n');
  if (newline == std::string_view::npos) return bad(name, "journal has no complete record");
  auto decoded = decode_journal(text.substr(0, newline + 1), name);
  if (!decoded || decoded->records.empty()) return bad(name, "journal record 1 is damaged");
  return interpret_journal(*decoded, name);
}

// The longest run time a record may carry ("run_s") [s]: a year.
constexpr double kMaxRunSeconds = 365.0 * 24 * 3600;

probe::Result<JournalState> interpret_journal(const DecodedJournal& journal, const std::string& name) {
  if (journal.records.empty()) return bad(name, "journal has no complete record");
  JournalState state;
  std::size_t index = 0;
  try {
    apply_start(state, journal.records.front());
    for (index = 1; index < journal.records.size(); ++index) {
      apply_record(state, journal.records[index]);
      if (const auto* run_s = journal.records[index].if_contains("run_s")) {
        if (!run_s->is_number()) throw std::invalid_argument("run_s is not a number");
        const double seconds = run_s->to_number<double>();
        // A year of one run is no run: an edited record, not a figure to count the elapsed time on.
        if (!(seconds >= 0.0 && seconds <= kMaxRunSeconds)) throw std::invalid_argument("run_s out of range");
        state.run_s = std::max(state.run_s.value_or(0.0), seconds);
      }
    }
  } catch (const std::out_of_range& e) {  // Boost.JSON's object::at names no key: ours do (MissingField)
    const std::string what = dynamic_cast<const MissingField*>(&e) ? e.what() : "a field is missing";
    return bad(name, "journal record " + std::to_string(index + 1) + ": " + what + " (written by another disktune version?)");
  } catch (const boost::system::system_error& e) {  // Boost.JSON's: its what() names its own source lines
    return bad(name, "journal record " + std::to_string(index + 1) + ": " + e.code().message());
  } catch (const std::exception& e) {
    return bad(name, "journal record " + std::to_string(index + 1) + ": " + e.what());
  }
  return state;
}

double measured_seconds(const TuneRecords& records) {
  double seconds = records.baseline ? strategies::measurement_seconds(records.baseline->trial) : 0.0;
  for (const auto& [key, trial] : records.results) seconds += strategies::measurement_seconds(trial);
  return seconds;
}

probe::Result<JournalState> read_journal(std::string_view text, const std::string& name) {
  const auto decoded = decode_journal(text, name);
  if (!decoded) return decoded.error();
  return interpret_journal(*decoded, name);
}

}  // namespace disktune::results
