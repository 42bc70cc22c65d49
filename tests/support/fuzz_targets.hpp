// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz targets by name: shared by the libFuzzer binaries and the regression unit test.
#pragma once

#include <span>
#include <string_view>

namespace disktune::testing {

/// One parser under fuzzing. `run` feeds it arbitrary bytes; it must return (an error
/// result is fine) and never crash, leak or trip a sanitizer.
struct FuzzTarget {
  std::string_view name;  ///< tests/fuzz/<name>_fuzz.cpp, tests/data/fuzz-regressions/<name>/
  void (*run)(std::string_view input);
};

/// The targets by the library they exercise, one file each, so that a fuzz binary links only
/// its parser's library: fuzz_identify_targets.cpp (the identify library alone),
/// fuzz_sim_targets.cpp (the simulator), fuzz_results_targets.cpp (results: the journal).
/// To add a target: an entry in one of them, a line in tests/fuzz/CMakeLists.txt naming its
/// group, and a file tests/fuzz/<name>_fuzz.cpp holding DISKTUNE_FUZZ_MAIN (scripts/fuzz
/// picks it up).
std::span<const FuzzTarget> identify_fuzz_targets();
std::span<const FuzzTarget> sim_fuzz_targets();
std::span<const FuzzTarget> results_fuzz_targets();

/// Every fuzz target, all groups (fuzz_targets.cpp; the unit tests link every library).
std::span<const FuzzTarget> fuzz_targets();

/// The target called `name` in `targets`; nullptr if there is none.
inline const FuzzTarget* find_fuzz_target(std::span<const FuzzTarget> targets, std::string_view name) {
  for (const auto& target : targets)
    if (target.name == name) return &target;
  return nullptr;
}

/// The target called `name` in any group; nullptr if there is none.
const FuzzTarget* find_fuzz_target(std::string_view name);

}  // namespace disktune::testing
