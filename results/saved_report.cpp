// SPDX-License-Identifier: GPL-2.0-or-later
// parse_saved_report.
#include "results/saved_report.hpp"

#include "results/json_numbers.hpp"
#include "results/snippet.hpp"
#include "results/winner_check.hpp"

#include "results/codec/settings_codec.hpp"

#include <boost/json.hpp>

#include <cstdio>
#include <stdexcept>

namespace disktune::results {
namespace {

namespace json = boost::json;

probe::Error bad(const std::string& file, const std::string& why) {
  return probe::Error{std::make_error_code(std::errc::invalid_argument), "report " + file + ": " + why, ""};
}

// A field missing or of the wrong type, named by its path ("device.size_bytes: missing").
struct FieldError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const json::value& field(const json::object& o, std::string_view where, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v) throw FieldError(std::string(where) + std::string(key) + ": missing");
  return *v;
}

[[noreturn]] void mistyped(std::string_view where, std::string_view key, const char* expected) {
  throw FieldError(std::string(where) + std::string(key) + ": expected " + expected);
}

const json::object& object_field(const json::object& o, std::string_view where, std::string_view key) {
  const auto& v = field(o, where, key);
  if (!v.is_object()) mistyped(where, key, "an object");
  return v.as_object();
}

// An identity string as printed in every message naming the drive: a control character
// (an escape sequence, a newline) would reach the terminal raw, and no drive's identity holds
// one; nor one longer than a path can be (PATH_MAX, 4096), which every message would repeat.
std::string identity_text(const json::string& text, std::string_view where, std::string_view key) {
  constexpr std::size_t kLongest = 4096;
  if (text.size() > kLongest)
    throw FieldError(std::string(where) + std::string(key) + ": " + std::to_string(text.size()) +
                     " characters long (at most " + std::to_string(kLongest) + ")");
  for (const char c : text)
    if (const auto byte = static_cast<unsigned char>(c); byte < 0x20 || byte == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02X", byte);
      throw FieldError(std::string(where) + std::string(key) + ": holds a control character (" + code + ")");
    }
  return std::string(text);
}

std::string string_field(const json::object& o, std::string_view where, std::string_view key) {
  const auto& v = field(o, where, key);
  if (!v.is_string()) mistyped(where, key, "a string");
  return identity_text(v.as_string(), where, key);
}

bool bool_field(const json::object& o, std::string_view where, std::string_view key) {
  const auto& v = field(o, where, key);
  if (!v.is_bool()) mistyped(where, key, "true or false");
  return v.as_bool();
}

// Absent or null: empty.
std::string optional_string(const json::object& o, std::string_view where, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v || v->is_null()) return {};
  if (!v->is_string()) mistyped(where, key, "a string or null");
  return identity_text(v->as_string(), where, key);
}

std::uint64_t size_field(const json::object& o, std::string_view where, std::string_view key) {
  const auto& v = field(o, where, key);
  if (v.is_uint64()) return v.as_uint64();
  if (!v.is_int64() || v.as_int64() < 0) mistyped(where, key, "a non-negative integer");
  return static_cast<std::uint64_t>(v.as_int64());
}

// device {path, model, serial, firmware, simulated, size_bytes, wwid, backing_file, emulated_by,
// backing_note}; throws
// FieldError naming a missing or mistyped field.
DeviceInfo device_of(const json::object& d) {
  constexpr std::string_view at = "device.";
  DeviceInfo device;
  device.path = string_field(d, at, "path");
  device.model = string_field(d, at, "model");
  device.serial = string_field(d, at, "serial");
  device.firmware = string_field(d, at, "firmware");
  device.simulated = bool_field(d, at, "simulated");
  device.stable_path = optional_string(d, at, "stable_path");
  device.size_bytes = size_field(d, at, "size_bytes");
  device.wwid = optional_string(d, at, "wwid");
  device.backing_file = optional_string(d, at, "backing_file");
  device.emulated_by = optional_string(d, at, "emulated_by");  // absent before the field existed: hardware
  device.backing_note = optional_string(d, at, "backing_note");  // absent before the field existed
  return device;
}

probe::Result<SavedReport> from_json(const json::object& o, const std::string& file, bool check_winner) {
  const auto* schema = o.if_contains("schema_version");
  if (!schema || !schema->is_int64()) return bad(file, "no schema_version: not a disktune report");
  if (schema->as_int64() < 3)
    return bad(file, "schema_version " + std::to_string(schema->as_int64()) +
                         " has no drive size or backing file to find the drive by; run the tune again with this disktune");
  // A later schema may mean something else by the same fields: never applied by guess.
  if (schema->as_int64() > kSchemaVersion)
    return bad(file, "schema_version " + std::to_string(schema->as_int64()) + " is newer than this disktune writes (" +
                         std::to_string(kSchemaVersion) + "): use the disktune that wrote it");
  SavedReport report;
  report.file = file;
  report.device = device_of(object_field(o, "", "device"));
  if (report.device.simulated)
    return bad(file, "a SIMULATED drive's report: it was measured on no disk, so there is none to apply, verify or install it on");
  if (const auto* noisy = o.if_contains("too_noisy"); noisy && noisy->is_bool() && noisy->as_bool())
    return bad(file, "the run was too noisy for an answer (nothing beat the noise): there is nothing to apply or "
                     "verify; tune again measuring longer (--duration, --max-repeats) on a quieter machine");
  if (!bool_field(o, "", "completed"))
    return bad(file, "the run stopped before it completed: it has no answer to apply or verify; run the tune again");
  if (const auto* reason = o.if_contains("stop_reason"); reason && reason->is_string() && reason->as_string() == kBaselineOnlyNote)
    return bad(file, "the run measured the baseline only (--max-trials 0): it tried no configuration, so it has no "
                     "answer to apply or verify; run the tune without --max-trials 0");
  auto baseline = settings_from_json(field(object_field(o, "", "baseline"), "baseline.", "settings"));
  if (!baseline) return bad(file, "baseline.settings: " + baseline.error().reason());
  report.baseline = std::move(*baseline);
  const auto& winner = field(o, "", "winner");
  if (!winner.is_null() && !winner.is_object()) mistyped("", "winner", "an object or null");
  if (!winner.is_null() && !bool_field(winner.as_object(), "winner.", "keep_baseline")) {
    auto changes = settings_from_json(field(winner.as_object(), "winner.", "changes"));
    if (!changes) return bad(file, "winner.changes: " + changes.error().reason());
    report.changes = std::move(*changes);
  }
  if (auto why = check_winner ? winner_changes_error(o) : std::string(); !why.empty()) return bad(file, why);
  if (const auto* restored = o.if_contains("restored"); restored && restored->is_bool())
    report.restored = restored->as_bool();
  return report;
}

}  // namespace

probe::Result<SavedReport> parse_saved_report(std::string_view text, const std::string& file, bool check_winner) {
  boost::system::error_code ec;
  const auto value = json::parse(text, ec);
  if (ec) return bad(file, "not JSON (" + ec.message() + ")");
  if (!value.is_object()) return bad(file, "not a JSON object: not a disktune report");
  if (const auto refusal = non_finite_refusal(value.as_object())) return bad(file, *refusal);
  try {
    return from_json(value.as_object(), file, check_winner);
  } catch (const FieldError& e) {
    return bad(file, e.what());
  } catch (const std::exception& e) {
    return bad(file, std::string("a field is missing or of the wrong type (") + e.what() + ")");
  }
}

}  // namespace disktune::results
