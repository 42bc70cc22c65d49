// SPDX-License-Identifier: GPL-2.0-or-later
// The JSON form of a scheduler's tunables, as a journal's start record keeps them.
#include "results/codec/tunables_codec.hpp"


#include <boost/json.hpp>

#include <stdexcept>

namespace disktune::results {

namespace json = boost::json;

json::object tunables_to_json(const probe::SchedulerTunables& tunables) {
  json::array values;
  for (const auto& [file, text] : tunables.values) values.push_back(json::array{json::string(file), json::string(text)});
  return {{"scheduler", tunables.scheduler}, {"values", std::move(values)}};
}

probe::SchedulerTunables tunables_from_json(const json::object& field) {
  probe::SchedulerTunables tunables;
  tunables.scheduler = std::string(field.at("scheduler").as_string());
  if (!probe::is_scheduler_name(tunables.scheduler))
    throw std::invalid_argument("scheduler_tunables: '" + tunables.scheduler + "' is no scheduler name");
  for (const auto& pair : field.at("values").as_array()) {
    std::string name(pair.at(0).as_string());
    // Restore writes these names under queue/: only a scheduler tunable's name, never a path.
    if (!probe::is_tunable_name(name))
      throw std::invalid_argument("scheduler_tunables: '" + name + "' is no scheduler tunable (iosched/NAME)");
    tunables.values.emplace_back(std::move(name), std::string(pair.at(1).as_string()));
  }
  return tunables;
}

}  // namespace disktune::results
