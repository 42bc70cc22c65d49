// SPDX-License-Identifier: GPL-2.0-or-later
// The results fuzz target: the run journal (decode, then interpret).
#include "tests/support/fuzz_targets.hpp"

#include "results/journal.hpp"

#include <array>
#include <string>

namespace disktune::testing {
namespace {

void journal(std::string_view input) {
  const auto decoded = results::decode_journal(input, "fuzz");
  if (decoded) (void)results::interpret_journal(*decoded, "fuzz");
}

constexpr std::array kTargets{
    FuzzTarget{"journal", journal},
};

}  // namespace

std::span<const FuzzTarget> results_fuzz_targets() { return kTargets; }

}  // namespace disktune::testing
