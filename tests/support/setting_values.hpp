// SPDX-License-Identifier: GPL-2.0-or-later
// Short constructors of setting values for tests: num(64), name("none").
#pragma once

#include "probe/settings.hpp"

namespace disktune::testing {

inline probe::SettingValue num(std::int64_t number) { return probe::SettingValue(number); }
inline probe::SettingValue name(const char* text) { return probe::SettingValue(std::string(text)); }

}  // namespace disktune::testing
