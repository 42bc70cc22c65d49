// SPDX-License-Identifier: GPL-2.0-or-later
// TuneD profile fragments: identity regex, disk/sysfs split in apply order, ATA comment.
#include "results/tuned_profile.hpp"

#include "tests/support/golden.hpp"
#include "tests/support/sample_reports.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;

namespace {

std::string render(const results::Report& report) { return results::TunedProfileEmitter().render(report); }

// by_id_report() with the kernel's wwid of a SATA disk that reports a WWN.
results::Report wwn_report() {
  auto report = test_support::by_id_report();
  report.device.wwid = "naa.50014EE2B1234567";
  return report;
}

}  // namespace

TEST_CASE("tuned fragment keys the disk unit by ID_WWN and ID_SERIAL", "[results]") {
  const auto text = render(wwn_report());
  test_support::check_golden("tuned_byid_wwn.conf", text);
  REQUIRE(text.find("[disktune-disk-WDC_WD800JB-00JJC0_WD-WMAM9AB12345]\n"
                    "type=disk\n"
                    "devices_udev_regex=^(ID_WWN=0x50014ee2b1234567|ID_SERIAL=WDC_WD800JB-00JJC0_WD-WMAM9AB12345)$\n"
                    "priority=-1\n"
                    "dynamic=0\n"
                    "readahead=1024\n") != std::string::npos);
  REQUIRE(text.find("[sysfs") == std::string::npos);
  REQUIRE(text.find("type=sysfs") == std::string::npos);
  REQUIRE(text.find("/sys/block/") == std::string::npos);  // nothing keyed by the kernel name
  REQUIRE(text.find("devices=") == std::string::npos);
}

TEST_CASE("tuned fragment for a loop device names the kernel name and says so", "[results]") {
  const auto text = render(test_support::loop_report());
  test_support::check_golden("tuned_loop.conf", text);
  REQUIRE(text.find("No udev property identifies this drive") != std::string::npos);
  // scheduler comes first in apply order: the disk unit sets it; nr_requests must follow it,
  // so it and everything after it (read_ahead_kb too) go to the sysfs unit, in apply order.
  REQUIRE(text.find("[disktune-disk-loop0]\ntype=disk\ndevices=loop0\npriority=-1\ndynamic=0\n"
                    "elevator=mq-deadline\n") != std::string::npos);
  REQUIRE(text.find("[disktune-sysfs-loop0]\ntype=sysfs\npriority=-1\n"
                    "/sys/block/loop0/queue/nr_requests=64\n"
                    "/sys/block/loop0/queue/read_ahead_kb=1024\n") != std::string::npos);
  REQUIRE(text.find("glob only, never by udev identity") != std::string::npos);
}

TEST_CASE("tuned fragment lists ATA settings TuneD cannot set and sets APM", "[results]") {
  auto report = test_support::seed_report();
  auto text = render(report);
  REQUIRE(text.find("# TuneD has no option for these ATA settings: apply them with the udev rule or\n"
                    "# /etc/hdparm.conf: hdparm -X66 -d1 -u1 -m16 -c3\n") != std::string::npos);
  REQUIRE(text.find("# No setting TuneD can apply changed.\n") != std::string::npos);
  REQUIRE(text.find("\n[") == std::string::npos);

  report.winner.changes.emplace(SettingId::apm, probe::SettingValue(254));
  text = render(report);
  REQUIRE(text.find("devices_udev_regex=^(ID_SERIAL=IBM-DJNA-352500_GW0GWF05809)$\npriority=-1\n"
                    "dynamic=0\napm=254\n") != std::string::npos);
  REQUIRE(text.find("hdparm -X66 -d1 -u1 -m16 -c3\n") != std::string::npos);  // -B not listed
}

TEST_CASE("tuned fragment sets readahead in sectors and escapes the serial for Python re",
          "[results]") {
  auto report = test_support::by_id_report();
  report.device.model = "ST3000DM001-1CH166";
  report.device.serial = "Z1F+2.3";
  report.winner.changes = {{SettingId::readahead, probe::SettingValue(4096)}};
  const auto text = render(report);
  REQUIRE(text.find("devices_udev_regex=^(ID_SERIAL=ST3000DM001-1CH166_Z1F\\+2\\.3)$\n") != std::string::npos);
  REQUIRE(text.find("readahead=4096 s\n") != std::string::npos);
}

TEST_CASE("tuned fragment keeping the baseline has no unit", "[results]") {
  const auto text = render(test_support::keep_baseline_report());
  REQUIRE(text.find("Keeping the baseline") != std::string::npos);
  REQUIRE(text.find("\n[") == std::string::npos);
  REQUIRE(text.find("\ntype=") == std::string::npos);
}

