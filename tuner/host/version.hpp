// SPDX-License-Identifier: GPL-2.0-or-later
// The tool version string (from CMake's project version).
#pragma once

#include <string_view>

namespace disktune::tuner {

/// "0.1.0": the version the JSON report and --version print.
std::string_view tool_version();

}  // namespace disktune::tuner
