// SPDX-License-Identifier: GPL-2.0-or-later
// The trial child's report as JSON text (the watchdog pipe's payload), both ways.
#include "tuner/trial_wire.hpp"

namespace disktune::tuner {

namespace json = boost::json;
using strategies::TrialStatus;

json::object to_object(const ChildReport& r) {
  return json::object{{"status", std::string(to_string(r.status))},
                      {"samples", json::array(r.samples.begin(), r.samples.end())},
                      {"cached", r.cached_mib_s},
                      {"crc", r.crc},
                      {"detail", r.detail},
                      {"warmup", r.warmup_mib_s},
                      {"stop", r.stop},
                      {"measured_s", r.measured_s}};
}

std::string serialize(const ChildReport& r) { return json::serialize(to_object(r)); }

ChildReport from_object(const json::object& o) {
  ChildReport r;
  r.status = strategies::trial_status_from_name(o.at("status").as_string()).value_or(TrialStatus::error);
  for (const auto& s : o.at("samples").as_array()) r.samples.push_back(s.to_number<double>());
  r.cached_mib_s = o.at("cached").to_number<double>();
  r.crc = o.at("crc").to_number<std::uint32_t>();
  r.detail = std::string(o.at("detail").as_string());
  r.warmup_mib_s = o.at("warmup").to_number<double>();
  r.stop = std::string(o.at("stop").as_string());
  r.measured_s = o.at("measured_s").to_number<double>();
  return r;
}

std::optional<ChildReport> deserialize(const std::string& payload) {
  boost::system::error_code ec;
  const auto value = json::parse(payload, ec);
  if (ec || !value.is_object()) return std::nullopt;
  return from_object(value.as_object());
}

std::string serialize_reports(const std::vector<ChildReport>& reports) {
  json::array array;
  for (const auto& r : reports) array.push_back(to_object(r));
  return json::serialize(array);
}

std::optional<std::vector<ChildReport>> deserialize_reports(const std::string& payload, std::size_t count) {
  boost::system::error_code ec;
  const auto value = json::parse(payload, ec);
  if (ec || !value.is_array() || value.as_array().size() != count) return std::nullopt;
  std::vector<ChildReport> reports;
  for (const auto& item : value.as_array()) {
    if (!item.is_object()) return std::nullopt;
    reports.push_back(from_object(item.as_object()));
  }
  return reports;
}

}  // namespace disktune::tuner
