// SPDX-License-Identifier: GPL-2.0-or-later
// DISKTUNE_FUZZ_MAIN: the libFuzzer entry point for the target CMake names after the file.
#pragma once

#include "probe/core/assert.hpp"
#include "tests/support/fuzz_targets.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

/// Defines LLVMFuzzerTestOneInput for the target DISKTUNE_FUZZ_TARGET in the group
/// DISKTUNE_FUZZ_GROUP (both set by tests/fuzz/CMakeLists.txt, the name from the file name
/// <name>_fuzz.cpp, the group from its table): the input bytes as text.
#define DISKTUNE_FUZZ_MAIN                                                                  \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {      \
    static const auto* target =                                                             \
        disktune::testing::find_fuzz_target(DISKTUNE_FUZZ_GROUP(), DISKTUNE_FUZZ_TARGET);   \
    DT_ASSERT(target != nullptr);                                                           \
    target->run(std::string_view(reinterpret_cast<const char*>(data), size));               \
    return 0;                                                                               \
  }
