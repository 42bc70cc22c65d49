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

/// Every fuzz target. To add one: an entry here (fuzz_targets.cpp) and a file
/// tests/fuzz/<name>_fuzz.cpp holding DISKTUNE_FUZZ_MAIN (scripts/fuzz picks it up).
std::span<const FuzzTarget> fuzz_targets();

/// The target called `name`; nullptr if there is none.
const FuzzTarget* find_fuzz_target(std::string_view name);

}  // namespace disktune::testing
