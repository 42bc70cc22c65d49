// SPDX-License-Identifier: GPL-2.0-or-later
// Strategy registry: names to factories, for the CLI and the parametrised strategy test.
#pragma once

#include "probe/core/error.hpp"
#include "strategies/strategy.hpp"

#include <memory>
#include <string>
#include <vector>

namespace disktune::strategies {

/// Registered strategy names, in --help order.
std::vector<std::string> strategy_names();

/// The name used when --strategy is not given ("coordinate-descent", chosen by evaluation).
std::string default_strategy_name();

/// A new strategy by name. Errors: errc::invalid_argument whose message lists the valid names.
probe::Result<std::unique_ptr<Strategy>> make_strategy(const std::string& name);

}  // namespace disktune::strategies
