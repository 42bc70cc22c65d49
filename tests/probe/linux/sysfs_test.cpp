// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for the queue/scheduler parser and sysfs file helpers.
#include "probe/linux/sysfs.hpp"

#include "probe/linux/linux_queue.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/require_value.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace disktune::probe;
using disktune::testing::require_value;
using disktune::testing::TempDir;

TEST_CASE("parse_scheduler_line returns the listed names and the bracketed one", "[probe]") {
  const auto list = require_value(parse_scheduler_line("none [mq-deadline] kyber bfq\n"));
  REQUIRE(list.names == std::vector<std::string>{"none", "mq-deadline", "kyber", "bfq"});
  REQUIRE(list.active == "mq-deadline");
  REQUIRE(list.switchable);

  const auto first = require_value(parse_scheduler_line("[none] mq-deadline"));
  REQUIRE(first.active == "none");
  REQUIRE(first.names.size() == 2);
}

TEST_CASE("parse_scheduler_line takes a bare name as a queue without switching", "[probe]") {
  const auto bare = require_value(parse_scheduler_line("none\n"));
  REQUIRE(bare.active == "none");
  REQUIRE(bare.names == std::vector<std::string>{"none"});
  REQUIRE_FALSE(bare.switchable);
}

TEST_CASE("parse_scheduler_line rejects lines without exactly one active name", "[probe]") {
  const char* line = GENERATE("", "  \n", "none mq-deadline", "[none] [bfq]", "[none mq-deadline",
                              "none] bfq", "[] bfq", "no[ne] [bfq]");
  auto parsed = parse_scheduler_line(line);
  REQUIRE_FALSE(parsed.has_value());
  REQUIRE(parsed.error().code == std::errc::invalid_argument);
  REQUIRE(parsed.error().op.find("parse queue/scheduler") == 0);
}

TEST_CASE("sysfs helpers read numbers, strip newlines and report errno with the path", "[probe]") {
  std::string dir_template = "/tmp/disktune-sysfs-XXXXXX";
  REQUIRE(::mkdtemp(dir_template.data()) != nullptr);
  const std::string file = dir_template + "/read_ahead_kb";
  std::ofstream(file) << "128\n";
  SysfsQueue queue(dir_template);

  REQUIRE(queue.has("read_ahead_kb"));
  REQUIRE_FALSE(queue.has("nr_requests"));
  auto number = queue.read_number("read_ahead_kb");
  REQUIRE(number);
  REQUIRE(*number == 128);

  REQUIRE(queue.write("read_ahead_kb", "4096"));
  REQUIRE(require_value(read_sysfs(file)) == "4096");

  std::ofstream(file) << "12x\n";
  auto bad = queue.read_number("read_ahead_kb");
  REQUIRE_FALSE(bad);
  REQUIRE(bad.error().code == std::errc::invalid_argument);

  auto missing = queue.read("nr_requests");
  REQUIRE_FALSE(missing);
  REQUIRE(missing.error().code.value() == ENOENT);
  REQUIRE(missing.error().path == dir_template + "/nr_requests");

  auto unwritable = queue.write("nr_requests", "64");
  REQUIRE_FALSE(unwritable);
  REQUIRE(unwritable.error().op == "write queue/nr_requests=64");
  std::filesystem::remove_all(dir_template);
}

TEST_CASE("a queue write never leaves the queue directory, and tunables are written only by their names",
          "[probe]") {
  const TempDir root("sysfs-escape");
  std::filesystem::create_directories(root.path() + "/queue/iosched");
  const std::string outside = root.path() + "/outside";
  std::ofstream(outside) << "old\n";
  std::ofstream(root.path() + "/queue/iosched/read_expire") << "500\n";
  const SysfsQueue queue(root.path() + "/queue");
  for (const std::string name : {"../outside", "iosched/../../outside", "/etc/hostname", ""}) {
    INFO(name);
    const auto wrote = queue.write(name, "PWNED");
    REQUIRE_FALSE(wrote);
    REQUIRE(wrote.error().code == std::errc::invalid_argument);
  }
  const auto tunable = write_tunables(queue, {{"iosched/read_expire", "200"}, {"iosched/../../outside", "PWNED"}});
  REQUIRE_FALSE(tunable);
  REQUIRE_THAT(tunable.error().message(), Catch::Contains("not a scheduler tunable's name"));
  CHECK(require_value(read_sysfs(outside)) == "old");
  CHECK(require_value(read_sysfs(root.path() + "/queue/iosched/read_expire")) == "200");
}
