// SPDX-License-Identifier: GPL-2.0-or-later
// The JSON form of settings (probe::Settings), shared by the report, the journal and the child wire.
#pragma once

#include "probe/core/error.hpp"
#include "probe/settings.hpp"

#include <boost/json/value.hpp>

namespace disktune::results {

/// One setting value as JSON: xfermode as its hdparm name ("udma2", probe::format_value),
/// scheduler as its name, every other setting as a JSON integer.
boost::json::value value_to_json(probe::SettingId id, const probe::SettingValue& value);

/// Settings as a JSON object {setting_name: value_to_json}, keys in apply order.
boost::json::value settings_to_json(const probe::Settings& settings);

/// Settings from their JSON object form (settings_to_json's inverse; a value may also be
/// given as a string, as probe::parse_value reads it).
/// Errors: errc::invalid_argument naming the unknown setting or bad value.
probe::Result<probe::Settings> settings_from_json(const boost::json::value& value);

}  // namespace disktune::results
