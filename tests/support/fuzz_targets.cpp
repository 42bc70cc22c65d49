// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz targets: identify text in its three formats and the simulated-drive profile.
#include "tests/support/fuzz_targets.hpp"

#include "probe/identify.hpp"
#include "probe/identify_text.hpp"
#include "probe/sim_profile.hpp"

#include <array>
#include <string>

namespace disktune::testing {
namespace {

// Parse, and on success also render the summary, which reads every decoded field.
void parse_identify(std::string_view input, probe::IdentifyFormat format) {
  const auto info = probe::parse_identify_text(input, format, "fuzz");
  if (info) (void)probe::identify_summary(*info);
}

void identify_raw(std::string_view input) { parse_identify(input, probe::IdentifyFormat::raw); }
void identify_hdparm_i(std::string_view input) { parse_identify(input, probe::IdentifyFormat::hdparm_i); }
void identify_hdparm_I(std::string_view input) { parse_identify(input, probe::IdentifyFormat::hdparm_I); }
void sim_profile(std::string_view input) { (void)probe::parse_sim_profile(input, "fuzz"); }

constexpr std::array kTargets{
    FuzzTarget{"identify_raw", identify_raw},
    FuzzTarget{"identify_hdparm_i", identify_hdparm_i},
    FuzzTarget{"identify_hdparm_I", identify_hdparm_I},
    FuzzTarget{"sim_profile", sim_profile},
};

}  // namespace

std::span<const FuzzTarget> fuzz_targets() { return kTargets; }

const FuzzTarget* find_fuzz_target(std::string_view name) {
  for (const auto& target : kTargets)
    if (target.name == name) return &target;
  return nullptr;
}

}  // namespace disktune::testing
