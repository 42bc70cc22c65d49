// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target identify_hdparm_i (tests/support/fuzz_targets.cpp says what it parses).
#include "tests/fuzz/fuzz_main.hpp"

DISKTUNE_FUZZ_MAIN
