// SPDX-License-Identifier: GPL-2.0-or-later
// The JSON form of a scheduler's own tunables (queue/iosched/*), as a journal's start record keeps them.
#pragma once

#include "probe/device.hpp"

#include <boost/json/object.hpp>

namespace disktune::results {

/// {"scheduler": name, "values": [[file, text], ...]}: the tunables in their order.
boost::json::object tunables_to_json(const probe::SchedulerTunables& tunables);

/// tunables_to_json's inverse. Throws std::invalid_argument when the scheduler is no scheduler
/// name (probe::is_scheduler_name) or a file is no scheduler tunable's name
/// (probe::is_tunable_name: restore writes these names under queue/, never a path), and
/// boost::json's exceptions on a missing or mistyped field.
probe::SchedulerTunables tunables_from_json(const boost::json::object& tunables);

}  // namespace disktune::results
