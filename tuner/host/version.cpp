// SPDX-License-Identifier: GPL-2.0-or-later
// The tool version string.
#include "tuner/host/version.hpp"

namespace disktune::tuner {

std::string_view tool_version() { return DISKTUNE_VERSION; }

}  // namespace disktune::tuner
