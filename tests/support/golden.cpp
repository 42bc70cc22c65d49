// SPDX-License-Identifier: GPL-2.0-or-later
// Golden files: read and compare, or rewrite on request.
#include "tests/support/golden.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>

namespace disktune::test_support {

void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(DISKTUNE_TEST_DATA) + "/golden/" + name;
  const char* update = std::getenv("DISKTUNE_UPDATE_GOLDEN");
  if (update != nullptr && std::string_view(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    WARN("rewrote golden file " << path);
    return;
  }
  std::ifstream in(path, std::ios::binary);
  INFO("golden file " << path << " (DISKTUNE_UPDATE_GOLDEN=1 rewrites it)");
  REQUIRE(in.good());
  std::ostringstream expected;
  expected << in.rdbuf();
  REQUIRE(actual == expected.str());
}

}  // namespace disktune::test_support
