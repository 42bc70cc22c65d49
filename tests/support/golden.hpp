// SPDX-License-Identifier: GPL-2.0-or-later
// Golden-file comparison for emitter tests (tests/data/golden/).
#pragma once

#include <string>

namespace disktune::test_support {

/// Compare `actual` with the file tests/data/golden/<name> (Catch2 REQUIRE, so a mismatch
/// prints both texts). With DISKTUNE_UPDATE_GOLDEN=1 in the environment the file is
/// rewritten with `actual` instead and the check passes with a warning: run
/// `DISKTUNE_UPDATE_GOLDEN=1 build/tests/unit_tests '[results]'`, then review `git diff`.
void check_golden(const std::string& name, const std::string& actual);

}  // namespace disktune::test_support
