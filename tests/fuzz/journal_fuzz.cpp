// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target journal (its group, tests/support/fuzz_*_targets.cpp, says what it parses).
#include "tests/fuzz/fuzz_main.hpp"

DISKTUNE_FUZZ_MAIN
