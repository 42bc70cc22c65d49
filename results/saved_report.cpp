// SPDX-License-Identifier: GPL-2.0-or-later
// parse_saved_report.
#include "results/saved_report.hpp"

#include "results/codec/settings_codec.hpp"

#include <boost/json.hpp>

namespace disktune::results {
namespace {

namespace json = boost::json;

probe::Error bad(const std::string& file, const std::string& why) {
  return probe::Error{std::make_error_code(std::errc::invalid_argument), "report " + file + ": " + why, ""};
}

std::string text_or_empty(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

// device {path, model, serial, firmware, simulated, size_bytes, wwid, backing_file}; throws
// std::exception on a missing or mistyped field.
DeviceInfo device_of(const json::object& d) {
  DeviceInfo device;
  device.path = std::string(d.at("path").as_string());
  device.model = std::string(d.at("model").as_string());
  device.serial = std::string(d.at("serial").as_string());
  device.firmware = std::string(d.at("firmware").as_string());
  device.simulated = d.at("simulated").as_bool();
  device.stable_path = text_or_empty(d, "stable_path");
  device.size_bytes = d.at("size_bytes").to_number<std::uint64_t>();
  device.wwid = text_or_empty(d, "wwid");
  device.backing_file = text_or_empty(d, "backing_file");
  return device;
}

probe::Result<SavedReport> from_json(const json::object& o, const std::string& file) {
  const auto* schema = o.if_contains("schema_version");
  if (!schema || !schema->is_int64()) return bad(file, "no schema_version: not a disktune report");
  if (schema->as_int64() < 3)
    return bad(file, "schema_version " + std::to_string(schema->as_int64()) +
                         " has no drive size or backing file to find the drive by; run the tune again with this disktune");
  SavedReport report;
  report.file = file;
  report.device = device_of(o.at("device").as_object());
  if (report.device.simulated)
    return bad(file, "a SIMULATED drive's report: there is no disk to apply it to");
  if (!o.at("completed").as_bool())
    return bad(file, "the run stopped before it completed: it has no answer to apply");
  auto baseline = settings_from_json(o.at("baseline").at("settings"));
  if (!baseline) return bad(file, "baseline.settings: " + baseline.error().message());
  report.baseline = std::move(*baseline);
  const auto& winner = o.at("winner");
  if (!winner.is_null() && !winner.at("keep_baseline").as_bool()) {
    auto changes = settings_from_json(winner.at("changes"));
    if (!changes) return bad(file, "winner.changes: " + changes.error().message());
    report.changes = std::move(*changes);
  }
  return report;
}

}  // namespace

probe::Result<SavedReport> parse_saved_report(std::string_view text, const std::string& file) {
  boost::system::error_code ec;
  const auto value = json::parse(text, ec);
  if (ec) return bad(file, "not JSON (" + ec.message() + ")");
  if (!value.is_object()) return bad(file, "not a JSON object: not a disktune report");
  try {
    return from_json(value.as_object(), file);
  } catch (const std::exception& e) {
    return bad(file, std::string("a field is missing or of the wrong type (") + e.what() + ")");
  }
}

}  // namespace disktune::results
