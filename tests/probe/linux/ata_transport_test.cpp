// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for the pure helpers of the ATA transport: libata's xfer_mode text and device names.
#include "probe/linux/ata_transport.hpp"

#include <catch2/catch.hpp>

using namespace disktune::probe;

TEST_CASE("parse_libata_xfer_mode maps libata's XFER_ names to hdparm -X codes", "[probe]") {
  REQUIRE(parse_libata_xfer_mode("XFER_UDMA_5\n") == 69);
  REQUIRE(parse_libata_xfer_mode("XFER_UDMA_2") == 66);
  REQUIRE(parse_libata_xfer_mode("XFER_MW_DMA_2") == 34);
  REQUIRE(parse_libata_xfer_mode("XFER_SW_DMA_0") == 16);
  REQUIRE(parse_libata_xfer_mode("XFER_PIO_4") == 12);
  REQUIRE_FALSE(parse_libata_xfer_mode("XFER_PIO_SLOW"));
  REQUIRE_FALSE(parse_libata_xfer_mode("N/A"));
  REQUIRE_FALSE(parse_libata_xfer_mode("XFER_UDMA_8"));
  REQUIRE_FALSE(parse_libata_xfer_mode("XFER_UDMA_"));
}

TEST_CASE("libata_device_name finds devP.D from the SCSI device's sysfs path", "[probe]") {
  REQUIRE(libata_device_name("/sys/devices/pci0000:00/0000:00:01.1/ata1/host0/target0:0:0/0:0:0:0") ==
          "dev1.0");
  REQUIRE(libata_device_name("/sys/devices/pci0000:00/0000:00:01.1/ata2/host1/target1:0:1/1:0:1:0") ==
          "dev2.1");
  REQUIRE(libata_device_name("/sys/devices/pci0000:00/0000:00:1f.2/ata7/host6/target6:3:0/6:3:0:0") ==
          "dev7.3.0");
  REQUIRE_FALSE(libata_device_name("/sys/devices/virtual/block/loop0"));
  REQUIRE_FALSE(libata_device_name("/sys/devices/pci0000:00/0000:00:04.0/virtio1/host2/target2:0:0/2:0:0:0"));
}
