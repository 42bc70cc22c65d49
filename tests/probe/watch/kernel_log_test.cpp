// SPDX-License-Identifier: GPL-2.0-or-later
// Kernel log matching: error patterns and which device a message concerns.
#include "probe/watch/kernel_log.hpp"

#include <catch2/catch.hpp>

using namespace disktune::probe;

TEST_CASE("is_error_line matches ATA and I/O error messages and nothing else", "[probe]") {
  REQUIRE(is_error_line("ata1.00: exception Emask 0x0 SAct 0x0 SErr 0x0 action 0x6 frozen"));
  REQUIRE(is_error_line("ata1.00: failed command: READ MULTIPLE"));
  REQUIRE(is_error_line("ata2: hard resetting link"));
  REQUIRE(is_error_line("ata1.00: limited to UDMA/33 due to 40-wire cable"));
  REQUIRE(is_error_line("I/O error, dev sda, sector 2048 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2"));
  REQUIRE(is_error_line("hdb: dma_intr: status=0x51 { DriveReady SeekComplete Error }"));
  REQUIRE(is_error_line("EXT4-fs (sda1): Remounting filesystem read-only"));
  REQUIRE_FALSE(is_error_line("loop2: detected capacity change from 0 to 131072"));
  REQUIRE_FALSE(is_error_line("ata1.00: configured for UDMA/33"));
}

TEST_CASE("concerns_device names the disk, or its ATA port for sd/hd disks", "[probe]") {
  REQUIRE(concerns_device("I/O error, dev sda, sector 8", "sda"));
  REQUIRE_FALSE(concerns_device("I/O error, dev sdab, sector 8", "sda"));
  REQUIRE_FALSE(concerns_device("I/O error, dev sdb, sector 8", "sda"));
  REQUIRE(concerns_device("ata1.00: exception Emask 0x0", "sda"));
  REQUIRE(concerns_device("ata3: hard resetting link", "sdb"));
  REQUIRE_FALSE(concerns_device("ata1.00: exception Emask 0x0", "loop0"));
  REQUIRE(concerns_device("blk_update_request: I/O error, dev loop0, sector 0", "loop0"));
}
