// SPDX-License-Identifier: GPL-2.0-or-later
// Settings <-> JSON object {setting_name: value}.
#include "results/codec/settings_codec.hpp"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <string>

namespace disktune::results {

namespace json = boost::json;

json::value value_to_json(probe::SettingId id, const probe::SettingValue& value) {
  if (id == probe::SettingId::xfermode || !value.is_number())
    return json::value(probe::format_value(id, value));
  return json::value(value.number());
}

json::value settings_to_json(const probe::Settings& settings) {
  json::object object;
  for (const auto& [id, value] : settings)
    object.emplace(probe::setting_name(id), value_to_json(id, value));
  return object;
}

probe::Result<probe::Settings> settings_from_json(const json::value& value) {
  const auto bad = [](const std::string& what) {
    return probe::Error{std::make_error_code(std::errc::invalid_argument), what, ""};
  };
  if (!value.is_object()) return bad("settings are not a JSON object");
  probe::Settings settings;
  for (const auto& [key, v] : value.as_object()) {
    const auto id = probe::setting_from_name(key);
    if (!id) return bad("unknown setting '" + std::string(key) + "'");
    // A value is a name ("mq-deadline") or a whole number; 1e30, 128.5 or null is neither.
    if (!v.is_string() && !v.is_int64())
      return bad("value " + json::serialize(v) + " for " + std::string(key) + " is not a whole number or a name");
    const std::string text = v.is_string() ? std::string(v.as_string()) : std::to_string(v.as_int64());
    auto parsed = probe::parse_value(*id, text);
    if (!parsed) return parsed.error();
    settings[*id] = std::move(*parsed);
  }
  return settings;
}

}  // namespace disktune::results
