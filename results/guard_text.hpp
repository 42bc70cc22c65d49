// SPDX-License-Identifier: GPL-2.0-or-later
// What the guard objective (`--objective A,B`) says about a trial, in words.
#pragma once

#include "bench/objective.hpp"
#include "strategies/trial.hpp"

#include <string>

namespace disktune::results {

/// "guard: rand-read-iops 812 IOPS, 9.1 % worse (in score) than the baseline's 893: beyond --tolerance 5 %"
/// when `trial` fails the guard (strategies::fails_guard with `tolerance`, a fraction) against
/// `baseline`; "" when it passes or has no guard figures. `guard`: the guard objective.
std::string guard_note(const bench::Objective& guard, const strategies::TrialResult& trial,
                       const strategies::TrialResult& baseline, double tolerance);

}  // namespace disktune::results
