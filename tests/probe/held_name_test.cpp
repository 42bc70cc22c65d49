// SPDX-License-Identifier: GPL-2.0-or-later
// probe/held_name: the held descriptor's name reaches the node opened, whatever its name does later.
#include "probe/held_name.hpp"

#include "probe/core/unique_fd.hpp"
#include "tests/support/require_value.hpp"
#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <fstream>

using namespace disktune;
using disktune::testing::require_value;

TEST_CASE("a held name keeps reaching the file opened after its name is moved to another", "[probe]") {
  disktune::testing::TempDir dir("held");
  const std::string named = dir.path() + "/disk";
  std::ofstream(named) << "held\n";
  const probe::UniqueFd fd(::open(named.c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(fd.get() >= 0);
  const auto held = require_value(probe::held_name(fd.get(), named));
  CHECK(held.path == "/proc/self/fd/" + std::to_string(fd.get()));
  CHECK(held.shown == named);
  // The user's name now names another file, as a re-pointed by-id link would.
  REQUIRE(::rename(named.c_str(), (dir.path() + "/moved").c_str()) == 0);
  std::ofstream(named) << "other\n";
  CHECK(probe::check_held(held));
  std::string through_held;
  std::string through_name;
  std::ifstream(held.path) >> through_held;
  std::ifstream(named) >> through_name;
  CHECK(through_held == "held");
  CHECK(through_name == "other");
}

TEST_CASE("check_held refuses a descriptor number that now names another file", "[probe]") {
  disktune::testing::TempDir dir("held");
  std::ofstream(dir.path() + "/disk") << "held\n";
  std::ofstream(dir.path() + "/other") << "other\n";
  probe::HeldName held;
  {
    const probe::UniqueFd fd(::open((dir.path() + "/disk").c_str(), O_RDONLY | O_CLOEXEC));
    held = require_value(probe::held_name(fd.get(), "/dev/disk/by-path/pci-0000:00:1f.2-ata-1"));
    REQUIRE(probe::check_held(held));
  }
  const probe::UniqueFd reused(::open((dir.path() + "/other").c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(reused.get() == held.fd);
  const auto checked = probe::check_held(held);
  REQUIRE_FALSE(checked);
  CHECK(checked.error().code == std::errc::no_such_device);
  CHECK(checked.error().path == "/dev/disk/by-path/pci-0000:00:1f.2-ata-1");
}
