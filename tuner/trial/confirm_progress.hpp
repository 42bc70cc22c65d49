// SPDX-License-Identifier: GPL-2.0-or-later
// ConfirmUnit: one measured unit of the confirmation round, as the log shows it.
#pragma once

#include "bench/objective.hpp"
#include "probe/settings.hpp"
#include "strategies/trial.hpp"
#include "strategies/trial_executor.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace disktune::tuner {

/// One unit of the confirmation round and its callback: strategies' (strategies/trial_executor.hpp).
using strategies::ConfirmProgress;
using strategies::ConfirmUnit;

/// The progress line of a unit, in the style of the search's trial lines:
/// "  [SIMULATED] confirm round 2/6, finalist 1/3: ok     14.84 MB/s  xfermode=udma2 (detail)"
/// (the figure in `objective`'s unit);
/// the baseline's says "baseline" and "(original settings)". `kind` is results::device_kind
/// ("[SIMULATED]", "[EMULATED]", nothing for hardware). `contender` is the unit's settings,
/// `original` the baseline's; no newline. `extra_pass`: 1, 2, ... for a unit of the round's
/// extra passes (strategies::confirm), whose rounds count from 1 again and are pooled with the
/// round's: "confirm extra pass 1, round 2/6, ..."; 0 for the round itself.
std::string confirm_progress_line(const ConfirmUnit& unit, const probe::Settings& contender,
                                  const probe::Settings& original, const std::string& kind,
                                  const bench::Objective& objective, int extra_pass = 0);

}  // namespace disktune::tuner
