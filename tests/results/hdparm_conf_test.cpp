// SPDX-License-Identifier: GPL-2.0-or-later
// /etc/hdparm.conf blocks: golden file, key map, by-id block, queue settings as a comment.
#include "results/hdparm_conf.hpp"

#include "tests/support/golden.hpp"
#include "tests/support/sample_reports.hpp"

#include <catch2/catch.hpp>

using namespace disktune;

TEST_CASE("hdparm.conf block for the seed drive uses Debian's keys in flag order", "[results]") {
  const auto text = results::HdparmConfEmitter().render(test_support::seed_report());
  test_support::check_golden("hdparm_conf_seed.conf", text);
  REQUIRE(text.find("/dev/hdb {\n"
                    "\ttransfer_mode = 66\n"
                    "\tdma = on\n"
                    "\tinterrupt_unmask = on\n"
                    "\tmult_sect_io = 16\n"
                    "\tio32_support = 3\n"
                    "}\n") != std::string::npos);
  REQUIRE(text.find("SIMULATED drive") != std::string::npos);
}

TEST_CASE("hdparm.conf keys the block by the by-id path and lists queue settings as comments",
          "[results]") {
  const auto text = results::HdparmConfEmitter().render(test_support::by_id_report());
  test_support::check_golden("hdparm_conf_byid.conf", text);
  REQUIRE(text.find("/dev/disk/by-id/ata-WDC_WD800JB-00JJC0_WD-WMAM9AB12345 {\n"
                    "\tread_ahead_sect = 2048\n}\n") != std::string::npos);
  REQUIRE(text.find("cannot be expressed in /etc/hdparm.conf") != std::string::npos);
  REQUIRE(text.find("#   read_ahead_kb = 1024\n") != std::string::npos);
}

TEST_CASE("hdparm.conf for queue-only changes has no block", "[results]") {
  const auto text = results::HdparmConfEmitter().render(test_support::loop_report());
  REQUIRE(text.find('{') == std::string::npos);
  REQUIRE(text.find("No ATA setting changed") != std::string::npos);
  REQUIRE(text.find("#   scheduler = mq-deadline\n") != std::string::npos);
}

TEST_CASE("hdparm.conf warns when only a kernel name is known", "[results]") {
  auto report = test_support::by_id_report();
  report.device.stable_path.clear();
  const auto text = results::HdparmConfEmitter().render(report);
  REQUIRE(text.find("No /dev/disk/by-id name is known: /dev/sda may name another drive") !=
          std::string::npos);
  REQUIRE(text.find("/dev/sda {\n\tread_ahead_sect = 2048\n}\n") != std::string::npos);
}

TEST_CASE("hdparm.conf keeping the baseline has no block", "[results]") {
  const auto text = results::HdparmConfEmitter().render(test_support::keep_baseline_report());
  REQUIRE(text.find('{') == std::string::npos);
  REQUIRE(text.find("Keeping the baseline") != std::string::npos);
}

TEST_CASE("hdparm.conf writes no block for a drive Debian's hdparm never applies it to",
          "[results]") {
  // 85-hdparm.rules runs the reader for KERNEL=="[sh]d[a-z]" only, and the reader cuts a
  // resolved by-id name at its first digit (nvme0n1 -> /dev/nvme): such a block is dead.
  const auto [path, stable] = GENERATE(table<std::string, std::string>({
      {"/dev/nvme0n1", "/dev/disk/by-id/nvme-Samsung_SSD_970_EVO_S466NX0K123456"},
      {"/dev/sdaa", "/dev/disk/by-id/ata-WDC_WD800JB-00JJC0_WD-WMAM9AB12345"},
      {"/dev/loop0", ""}}));
  auto report = test_support::by_id_report();
  report.device.path = path;
  report.device.stable_path = stable;
  const auto text = results::HdparmConfEmitter().render(report);
  INFO(text);
  REQUIRE(text.find('{') == std::string::npos);
  REQUIRE(text.find("# Debian's hdparm applies /etc/hdparm.conf only to /dev/sd[a-z] and /dev/hd[a-z]") !=
          std::string::npos);
  REQUIRE(text.find("#   readahead = 2048\n") != std::string::npos);
}

TEST_CASE("hdparm_conf_missing_reason names the one reason that holds", "[results]") {
  CHECK(results::hdparm_conf_missing_reason(test_support::seed_report()).empty());
  CHECK(results::hdparm_conf_missing_reason(test_support::by_id_report()).empty());
  const auto queue_only = results::hdparm_conf_missing_reason(test_support::loop_report());
  CHECK_THAT(queue_only, Catch::StartsWith("its answer changes no ATA setting or readahead"));
  CHECK_THAT(queue_only, !Catch::Contains(" or Debian"));
  // The loop device's readahead change: hdparm.conf has the key, Debian applies no block to loop0.
  auto loop = test_support::loop_report();
  loop.winner.changes.emplace(probe::SettingId::readahead, probe::SettingValue(2048));
  CHECK(results::hdparm_conf_missing_reason(loop) ==
        "Debian's hdparm applies /etc/hdparm.conf only to /dev/sd[a-z] and /dev/hd[a-z] (85-hdparm.rules), not to loop0");
  // Nothing to apply: the report's own reason, from its snippet's comment.
  const auto kept = results::hdparm_conf_missing_reason(test_support::keep_baseline_report());
  CHECK_FALSE(kept.empty());
  CHECK_THAT(kept, !Catch::Contains("ATA setting") && !Catch::Contains("85-hdparm.rules"));
  CHECK(results::hdparm_conf_stanza(test_support::keep_baseline_report()).empty());
}
