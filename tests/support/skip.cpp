// SPDX-License-Identifier: GPL-2.0-or-later
// skip_test (skip.hpp).
#include "tests/support/skip.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>

namespace disktune::testing {

void skip_test(const std::string& why) {
  if (std::getenv("DISKTUNE_SKIP_EXIT") != nullptr) {
    std::printf("SKIPPED: %s\n", why.c_str());
    std::fflush(stdout);
    std::_Exit(kSkipExit);  // no Catch2 summary: CTest reads the exit status alone
  }
  WARN("SKIPPED: " << why);
}

}  // namespace disktune::testing
