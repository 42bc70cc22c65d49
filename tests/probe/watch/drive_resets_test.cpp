// SPDX-License-Identifier: GPL-2.0-or-later
// Resume and port reset messages, and a disk's port names from a sysfs tree.
#include "probe/watch/drive_resets.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <unistd.h>

using namespace disktune::probe;
namespace fs = std::filesystem;

TEST_CASE("is_resume_message matches the kernel's resume lines only", "[probe]") {
  REQUIRE(is_resume_message("PM: suspend exit"));
  REQUIRE(is_resume_message("PM: hibernation: hibernation exit"));
  REQUIRE(is_resume_message("PM: hibernation exit"));
  REQUIRE(is_resume_message("ACPI: PM: Low-level resume complete"));
  REQUIRE(is_resume_message("ACPI: Low-level resume complete"));
  REQUIRE_FALSE(is_resume_message("PM: suspend entry (deep)"));
  REQUIRE_FALSE(is_resume_message("PM: hibernation: hibernation entry"));
  REQUIRE_FALSE(is_resume_message("disktune-test: PM: suspend exit"));
}

TEST_CASE("is_reset_message matches the exact port's reset and revalidation", "[probe]") {
  const DevicePorts ports{"ata3", "2:0:0:0"};
  REQUIRE(is_reset_message("ata3: hard resetting link", ports));
  REQUIRE(is_reset_message("ata3: soft resetting link", ports));
  REQUIRE(is_reset_message("ata3.00: configured for UDMA/133", ports));
  REQUIRE(is_reset_message("ata3.00: revalidation failed (errno=-5)", ports));
  REQUIRE(is_reset_message("sd 2:0:0:0: Power-on or device reset occurred", ports));
  REQUIRE_FALSE(is_reset_message("ata31: hard resetting link", ports));
  REQUIRE_FALSE(is_reset_message("ata3.00: failed command: READ FPDMA QUEUED", ports));
  REQUIRE_FALSE(is_reset_message("ata4: hard resetting link", ports));
  REQUIRE_FALSE(is_reset_message("sd 2:0:0:1: Power-on or device reset occurred", ports));
  REQUIRE_FALSE(is_reset_message("sd 2:0:0:0: [sdb] Attached SCSI disk", ports));
  REQUIRE_FALSE(is_reset_message("ata3: hard resetting link", DevicePorts{}));
}

TEST_CASE("first_resume and first_reset take the first matching record", "[probe]") {
  const auto records = parse_kmsg_text("6,1,10,-;ata3.00: configured for UDMA/133\n6,2,20,-;PM: suspend exit\n"
                                       "6,3,30,-;ata3: hard resetting link\n6,4,40,-;PM: suspend exit\n");
  REQUIRE(first_resume(records)->usec == 20);
  const auto reset = first_reset(records, DevicePorts{"ata3", ""});
  REQUIRE(reset->usec == 10);
  REQUIRE(reset->port == "ata3");
  REQUIRE(first_reset(records, DevicePorts{"", "2:0:0:0"}) == std::nullopt);
  REQUIRE(first_resume({}) == std::nullopt);
}

TEST_CASE("device_ports reads the ATA port and SCSI address from sysfs, none for a loop device", "[probe]") {
  char dir_template[] = "/tmp/drive_resets_test.XXXXXX";
  const fs::path root = ::mkdtemp(dir_template);
  const auto disk = root / "devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0";
  fs::create_directories(disk);
  fs::create_directories(root / "block/sdb");
  fs::create_symlink(disk, root / "block/sdb/device");
  fs::create_directories(root / "devices/virtual/block/loop0");
  fs::create_directories(root / "block/loop0");
  const auto ports = device_ports("sdb", (root / "block").string());
  const auto loop = device_ports("loop0", (root / "block").string());
  fs::remove_all(root);
  REQUIRE(ports.ata_port == "ata3");
  REQUIRE(ports.scsi_address == "2:0:0:0");
  REQUIRE(loop.ata_port.empty());
  REQUIRE(loop.scsi_address.empty());
}
