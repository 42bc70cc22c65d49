// SPDX-License-Identifier: GPL-2.0-or-later
// Every input the fuzzers ever crashed on, and the seed corpus beside them
// (tests/data/fuzz-regressions/<target>/), parses safely now.
#include "tests/support/fuzz_targets.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace disktune;
namespace fs = std::filesystem;

TEST_CASE("every fuzz regression directory names a fuzz target", "[probe]") {
  const fs::path root = DISKTUNE_FUZZ_REGRESSIONS;
  REQUIRE(fs::is_directory(root));
  for (const auto& entry : fs::directory_iterator(root)) {
    if (!entry.is_directory()) continue;
    INFO(entry.path());
    REQUIRE(testing::find_fuzz_target(entry.path().filename().string()) != nullptr);
  }
}

TEST_CASE("fuzz regression inputs run through their parser without crashing", "[probe]") {
  const fs::path root = DISKTUNE_FUZZ_REGRESSIONS;
  std::size_t inputs = 0;
  for (const auto& target : testing::fuzz_targets()) {
    const fs::path dir = root / std::string(target.name);
    std::size_t of_target = 0;
    for (const auto& file : fs::directory_iterator(dir)) {
      std::ifstream in(file.path(), std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      INFO(file.path());
      target.run(bytes.str());  // a crash or DT_ASSERT here aborts the test binary
      ++of_target;
    }
    // Every target has inputs: the seed corpus (seed-*) and whatever scripts/fuzz has found.
    INFO(dir << " holds no input: a regression test over nothing proves nothing");
    CHECK(of_target > 0);
    inputs += of_target;
  }
  REQUIRE(inputs >= testing::fuzz_targets().size());
}

TEST_CASE("fuzz targets parse a valid capture without complaint", "[probe]") {
  const auto* target = testing::find_fuzz_target("identify_hdparm_i");
  REQUIRE(target != nullptr);
  REQUIRE(testing::find_fuzz_target("no_such_target") == nullptr);
  REQUIRE(testing::fuzz_targets().size() == 5);
  REQUIRE(testing::find_fuzz_target("journal") != nullptr);
  std::ifstream in(std::string(DISKTUNE_TEST_DATA) + "/identify/hdparm-i_conner-cfs1275a_kernel-geometry.txt");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  target->run(text.str());
}
