// SPDX-License-Identifier: GPL-2.0-or-later
// A test case that cannot run here (no root, no loop device, no fio) says so as a skip.
#pragma once

#include <string>

namespace disktune::testing {

/// Exit status CTest reads as "skipped" (tests/CMakeLists.txt: SKIP_RETURN_CODE 77, as the
/// script tests use).
inline constexpr int kSkipExit = 77;

/// Marks the running test case skipped, naming why. Under CTest (DISKTUNE_SKIP_EXIT set by
/// tests/CMakeLists.txt, one test case per process) it prints "SKIPPED: why" and exits with
/// kSkipExit, so CTest counts a skip, never a pass. Run by hand (the whole binary in one
/// process) it WARNs and returns, so the other test cases still run; the caller returns
/// right after it.
void skip_test(const std::string& why);

}  // namespace disktune::testing
