// SPDX-License-Identifier: GPL-2.0-or-later
// udev rules: golden files, ID_SERIAL as ata_id builds it, matching by stable identity only.
#include "results/udev_rules.hpp"

#include "tests/support/golden.hpp"
#include "tests/support/sample_reports.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using namespace disktune;

TEST_CASE("udev rule for the seed drive matches ID_SERIAL and runs hdparm quietly", "[results]") {
  const auto text = results::UdevRulesEmitter().render(test_support::seed_report());
  test_support::check_golden("udev_seed.rules", text);
  REQUIRE(text.find("ENV{ID_BUS}==\"ata\", ENV{ID_SERIAL}==\"IBM-DJNA-352500_GW0GWF05809\"") != std::string::npos);
  REQUIRE(text.find("RUN+=\"/usr/sbin/hdparm -q -X66 -q -d1 -q -u1 -q -m16 -q -c3 /dev/%k\"") !=
          std::string::npos);
  REQUIRE(text.find("ATTR{") == std::string::npos);
}

TEST_CASE("udev rule for a loop device matches its backing file and sets queue attributes",
          "[results]") {
  const auto text = results::UdevRulesEmitter().render(test_support::loop_report());
  test_support::check_golden("udev_loop.rules", text);
  REQUIRE(text.find("KERNEL==\"loop0\"") == std::string::npos);
  REQUIRE(text.find("KERNEL==\"loop[0-9]*\", ATTR{loop/backing_file}==\"/srv/images/disk.img\", \\\n"
                    "  ATTR{queue/scheduler}=\"mq-deadline\", \\\n"
                    "  ATTR{queue/nr_requests}=\"64\", \\\n"
                    "  ATTR{queue/read_ahead_kb}=\"1024\"\n") != std::string::npos);
  REQUIRE(text.find("RUN+=") == std::string::npos);
}

TEST_CASE("udev ID_SERIAL follows ata_id: whitespace runs and odd characters become '_'",
          "[results]") {
  REQUIRE(results::udev_id_serial("WDC WD800JB-00JJC0", "WD-WMAM9AB12345") ==
          "WDC_WD800JB-00JJC0_WD-WMAM9AB12345");
  REQUIRE(results::udev_id_serial("QEMU  HARDDISK", "QM00001") == "QEMU_HARDDISK_QM00001");
  REQUIRE(results::udev_id_serial("Odd\"Model/1", "S N") == "Odd_Model_1_S_N");
  REQUIRE(results::udev_id_serial("", "QM00001").empty());
}

TEST_CASE("udev rule keeping the baseline has no rule line", "[results]") {
  const auto text = results::UdevRulesEmitter().render(test_support::keep_baseline_report());
  REQUIRE(text.find("ACTION==") == std::string::npos);
  REQUIRE(text.find("Keeping the baseline") != std::string::npos);
}

TEST_CASE("udev rule rejects an unsafe scheduler name", "[results]") {
  auto report = test_support::loop_report();
  report.winner.changes[probe::SettingId::scheduler] = probe::SettingValue(std::string("a\"b"));
  REQUIRE_THROWS_AS(results::UdevRulesEmitter().render(report), std::invalid_argument);
}

TEST_CASE("udev: a drive without serial, WWN or backing file gets no rule, never a kernel-name match",
          "[results]") {
  auto report = test_support::loop_report();
  report.device.backing_file.clear();
  const auto text = results::UdevRulesEmitter().render(report);
  REQUIRE(text.find("ACTION==") == std::string::npos);
  REQUIRE(text.find("KERNEL==") == std::string::npos);
  REQUIRE(text.find("# No rule: loop0 has no serial, WWN or backing file") != std::string::npos);
  report.device.wwid = "eui.0025385b71b0a1c2";
  REQUIRE(results::UdevRulesEmitter().render(report).find("ATTRS{wwid}==\"eui.0025385b71b0a1c2\"") !=
          std::string::npos);
}

TEST_CASE("udev: a backing file or wwid with a udev pattern character is refused", "[results]") {
  for (const char* file : {"/srv/disk*.img", "/srv/a|b", "/srv/d[1].img", "/srv/a\"b", "/srv/a?b"}) {
    results::DeviceInfo device;
    device.backing_file = file;
    INFO(file);
    REQUIRE_THROWS_AS(results::udev_match_clause(device), std::invalid_argument);
  }
  results::DeviceInfo spaced;
  spaced.wwid = "t10.ATA     QEMU HARDDISK                           QM00001";
  REQUIRE(results::udev_match_clause(spaced) == "ATTRS{wwid}==\"" + spaced.wwid + "\"");
}

TEST_CASE("udev_id_wwn follows ata_id, scsi_id and the NVMe rule", "[results]") {
  REQUIRE(results::udev_id_wwn("naa.5000C500A1B2C3D4") == "0x5000c500a1b2c3d4");
  REQUIRE(results::udev_id_wwn("naa.600508b1001c4d5e6f7a8b9c0d1e2f30") == "0x600508b1001c4d5e");
  REQUIRE(results::udev_id_wwn("eui.0025388b71b2c3d4") == "eui.0025388b71b2c3d4");
  REQUIRE(results::udev_id_wwn("t10.ATA     QEMU HARDDISK   QM00001").empty());
  REQUIRE(results::udev_id_wwn("naa.1234").empty());
  REQUIRE(results::udev_id_wwn("").empty());
  REQUIRE(results::udev_id_wwn("eui.00$(reboot)").empty());
}

TEST_CASE("udev: an NVMe namespace by ENV{ID_WWN} under its kernel-name class, a SCSI disk by its whole wwid",
          "[results]") {
  results::DeviceInfo nvme;
  nvme.path = "/dev/nvme0n1";
  nvme.wwid = "eui.0025388b71b2c3d4";
  REQUIRE(results::udev_match_clause(nvme) == "KERNEL==\"nvme*\", ENV{ID_WWN}==\"eui.0025388b71b2c3d4\"");
  results::DeviceInfo scsi;
  scsi.path = "/dev/sdc";
  scsi.wwid = "naa.600508b1001c4d5e6f7a8b9c0d1e2f30";  // NAA-6: scsi_id's ID_WWN would hold half of it
  REQUIRE(results::udev_match_clause(scsi) == "KERNEL==\"sd*\", ATTRS{wwid}==\"naa.600508b1001c4d5e6f7a8b9c0d1e2f30\"");
  // A disk with model and serial is matched by ID_SERIAL whatever its wwid.
  scsi.model = "ST4000NM0023";
  scsi.serial = "Z1Z0ABCD";
  REQUIRE(results::udev_match_clause(scsi) == "ENV{ID_BUS}==\"ata\", ENV{ID_SERIAL}==\"ST4000NM0023_Z1Z0ABCD\"");
  // An NVMe wwid udev would not copy as it is (a space) falls back to the exact sysfs match.
  nvme.wwid = "nvme.8086-ABC DEF";
  REQUIRE(results::udev_match_clause(nvme) == "ATTRS{wwid}==\"nvme.8086-ABC DEF\"");
}
