// SPDX-License-Identifier: GPL-2.0-or-later
// The identify fuzz targets: identify text in its three formats (the identify library only).
#include "tests/support/fuzz_targets.hpp"

#include "probe/identify/identify.hpp"
#include "probe/identify/identify_text.hpp"

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

constexpr std::array kTargets{
    FuzzTarget{"identify_raw", identify_raw},
    FuzzTarget{"identify_hdparm_i", identify_hdparm_i},
    FuzzTarget{"identify_hdparm_I", identify_hdparm_I},
};

}  // namespace

std::span<const FuzzTarget> identify_fuzz_targets() { return kTargets; }

}  // namespace disktune::testing
