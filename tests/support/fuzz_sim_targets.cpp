// SPDX-License-Identifier: GPL-2.0-or-later
// The simulator fuzz target: the simulated-drive profile (JSON).
#include "tests/support/fuzz_targets.hpp"

#include "probe/sim/sim_profile.hpp"

#include <array>
#include <string>

namespace disktune::testing {
namespace {

void sim_profile(std::string_view input) { (void)probe::parse_sim_profile(input, "fuzz"); }

constexpr std::array kTargets{
    FuzzTarget{"sim_profile", sim_profile},
};

}  // namespace

std::span<const FuzzTarget> sim_fuzz_targets() { return kTargets; }

}  // namespace disktune::testing
