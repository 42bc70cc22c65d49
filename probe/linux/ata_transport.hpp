// SPDX-License-Identifier: GPL-2.0-or-later
// AtaTransport: the kernel calls the ATA knobs need (HDIO ioctls, SG_IO, libata sysfs), as an interface.
#pragma once

#include "probe/linux/ata_passthrough.hpp"
#include "probe/core/error.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace disktune::probe {

/// The knobs with an HDIO_GET_x / HDIO_SET_x ioctl pair (docs/ata-reference.md §3.1).
enum class HdioKnob { multcount, io_support, unmaskirq, using_dma };

/// "HDIO_GET_MULTCOUNT", "HDIO_GET_32BIT", "HDIO_GET_UNMASKINTR", "HDIO_GET_DMA".
std::string_view hdio_get_name(HdioKnob knob);
/// "HDIO_SET_MULTCOUNT", "HDIO_SET_32BIT", "HDIO_SET_UNMASKINTR", "HDIO_SET_DMA".
std::string_view hdio_set_name(HdioKnob knob);

/// The hdparm -X code of a libata /sys/class/ata_device/devX.Y/xfer_mode text
/// ("XFER_UDMA_5" -> 69, "XFER_MW_DMA_2" -> 34, "XFER_SW_DMA_0" -> 16, "XFER_PIO_4" -> 12);
/// nullopt for anything else ("XFER_PIO_SLOW", "N/A"). Source: libata-transport.c
/// ata_xfer_names, show_ata_dev_xfer_mode.
std::optional<std::int64_t> parse_libata_xfer_mode(std::string_view text);

/// The libata transport name ("dev1.0", "dev3.1.0" behind a port multiplier) of the ATA
/// device behind a SCSI device whose canonical sysfs path is `scsi_device_path`
/// (".../ata1/host0/target0:0:1/0:0:1:0" -> "dev1.1"): N from the "ataN" component, the
/// device number from the SCSI id (channel 0) or the PMP link from the channel.
/// nullopt when the path has no ataN component (not libata). Source: libata-scsi.c
/// ata_scsi_scan_host, libata-transport.c ata_tdev_add.
std::optional<std::string> libata_device_name(std::string_view scsi_device_path);

/// The kernel calls behind the ATA knobs of one device. LinuxAtaTransport does them for
/// real; tests use a fake that records calls (ninja's DiskInterface pattern). Every error
/// carries the call and the device path.
class AtaTransport {
 public:
  virtual ~AtaTransport() = default;
  /// The device node ("/dev/sda").
  [[nodiscard]] virtual const std::string& path() const = 0;
  /// ioctl(HDIO_GET_x). Errors: (errno, "ioctl(HDIO_GET_x)", path); libata: ENOTTY for all
  /// but HDIO_GET_32BIT.
  virtual Result<std::int64_t> hdio_get(HdioKnob knob) = 0;
  /// ioctl(HDIO_SET_x, value). Errors: (errno, "ioctl(HDIO_SET_x N)", path).
  virtual Result<void> hdio_set(HdioKnob knob, std::int64_t value) = 0;
  /// ioctl(HDIO_GET_IDENTITY): the kernel's cached copy, in ATA string order.
  /// Errors: (errno, "ioctl(HDIO_GET_IDENTITY)", path).
  virtual Result<std::array<std::byte, 512>> hdio_identity() = 0;
  /// SG_IO with ATA PASS-THROUGH(`cdb_bytes` = 16 or 12) carrying `command`; `data` holds
  /// command.data_bytes bytes for a data-in command. Returns the registers when the sense
  /// carried them. Errors: (errno, "ioctl(SG_IO ATA_16 <name>)", path) when the ioctl itself
  /// fails; otherwise as interpret_sg_io with op "SG_IO ATA_16 <name>"; EBADE when the host
  /// or driver status says the command never reached a drive.
  virtual Result<std::optional<AtaStatusReturn>> sg_ata(const AtaCommand& command, int cdb_bytes,
                                                        std::span<std::byte> data) = 0;
  /// ioctl(HDIO_DRIVE_CMD) with a non-data `command` ([0] command, [1] count, [2] feature).
  /// Errors: (errno, "ioctl(HDIO_DRIVE_CMD <name>)", path); EIO when the drive aborted it.
  virtual Result<void> drive_cmd(const AtaCommand& command) = 0;
  /// Text of /sys/class/ata_device/<libata_device_name>/xfer_mode. Errors: ENOENT when the
  /// device is not on libata or the attribute is absent.
  virtual Result<std::string> libata_xfer_mode() = 0;
};

}  // namespace disktune::probe
