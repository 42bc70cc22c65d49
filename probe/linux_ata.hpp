// SPDX-License-Identifier: GPL-2.0-or-later
// The legacy ATA knobs (hdparm -m -c -u -d -X) and HDIO_GET_IDENTITY on a real device.
#pragma once

#include "probe/device.hpp"

#include <array>
#include <cstddef>
#include <span>
#include <string>

namespace disktune::probe {

/// Swap the two bytes of every word of the identify string fields (serial words 10-19,
/// firmware 23-26, model 27-46). HDIO_GET_IDENTITY hands them over in natural order (libata's
/// ata_get_identity re-formats them with ata_id_string; legacy IDE fixed them at probe);
/// decode_identify expects ATA order, first character in the high byte.
/// Source: ATA-REFERENCE §1.1.
void hdio_identity_to_ata_order(std::span<std::byte, 512> block);

/// ioctl(HDIO_GET_IDENTITY, 0x030d): the 512-byte identify block the kernel cached at probe or
/// revalidate time, converted to ATA order. Sends no command to the drive.
/// Errors: errc::not_supported ("ioctl(HDIO_GET_IDENTITY)", path) when the driver refuses it
/// with ENOTTY or EINVAL (loop, virtio, NVMe: block-layer tuning only); other errno as they come.
Result<std::array<std::byte, 512>> read_hdio_identity(int fd, const std::string& path);

/// The five ATA knobs of a real device, classified by their read ioctls (HDIO_GET_MULTCOUNT,
/// HDIO_GET_32BIT, HDIO_GET_UNMASKINTR, HDIO_GET_DMA; ATA-REFERENCE §3.1, §3.3). Only
/// io_support can be changed so far (HDIO_SET_32BIT, a kernel flag, no drive command); the
/// others are read-only until the full ATA path exists. Does not own `fd`.
class LinuxAtaKnobs {
 public:
  /// `fd`, `dev_path`: the device's open whole-disk node.
  LinuxAtaKnobs(int fd, std::string dev_path) : fd_(fd), dev_path_(std::move(dev_path)) {}

  /// True for multcount, io_support, unmaskirq, using_dma and xfermode.
  static bool handles(SettingId id);
  /// Support and reason; values stay empty (they come from identify data). A refused read
  /// ioctl makes the knob unsupported, reason "ioctl(HDIO_GET_DMA) on /dev/loop0: <strerror>".
  /// xfermode has no read ioctl: it is read-only when `identify` (nullptr = none) shows an
  /// active DMA mode, unsupported otherwise ("SET FEATURES 0x03 not attempted: ...").
  [[nodiscard]] Capability capability(SettingId id, const IdentifyInfo* identify) const;
  /// Current value from the read ioctl (xfermode: the active DMA mode in identify data as an
  /// hdparm -X code). Errors: (errno, "ioctl(HDIO_GET_...)", path); errc::not_supported for
  /// xfermode without identify data or without an active DMA mode.
  [[nodiscard]] Result<SettingValue> read(SettingId id, const IdentifyInfo* identify) const;
  /// io_support: ioctl(HDIO_SET_32BIT, value); errors (errno, "ioctl(HDIO_SET_32BIT N)", path),
  /// libata answers EINVAL for any value but the current one on most ports. The other knobs:
  /// errc::operation_not_supported ("apply <name>: not implemented yet").
  Result<void> apply(SettingId id, const SettingValue& value);

 private:
  int fd_;
  std::string dev_path_;
};

}  // namespace disktune::probe
