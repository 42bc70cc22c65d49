// SPDX-License-Identifier: GPL-2.0-or-later
// AtaKnobs: identify, capability discovery, read, apply and read-back of the ATA knobs, on any AtaTransport.
#pragma once

#include "probe/linux/ata_transport.hpp"
#include "probe/device.hpp"

#include <map>
#include <optional>

namespace disktune::probe {

/// The ATA side of a real device, for the legacy IDE driver and libata alike; every kernel
/// call goes through `transport` (not owned), so tests run it against a fake.
///
/// Mechanisms (docs/ata-reference.md §3.3, docs/architecture.md "The two device worlds"):
/// - io_support, unmaskirq, using_dma: HDIO_GET_x / HDIO_SET_x.
/// - multcount: HDIO_GET/SET_MULTCOUNT where the driver has them (legacy ide-disk); on
///   libata (ENOTTY) a raw SET MULTIPLE MODE (0xC6, count = N) through SG_IO, read back from
///   IDENTIFY word 59 of a fresh IDENTIFY. hdparm sends that raw command only with
///   --yes-i-know-what-i-am-doing: a count libata does not expect makes every following read
///   fail with EIO (docs/architecture.md "The ATA lab"). disktune takes that risk only inside a trial
///   child, which restores the original count and after which the parent checks that the
///   drive still reads (tuner/trial/trial_runner.hpp).
/// - xfermode: SET FEATURES 0x03 through SG_IO, falling back to HDIO_DRIVE_CMD when SG_IO is
///   not available (legacy IDE); read from libata's xfer_mode attribute, else from the active
///   mode in IDENTIFY words 63/88.
/// - apm, aam (hdparm -B, -M): SET FEATURES 05h/85h, 42h/C2h (set_apm_command,
///   set_aam_command) through SG_IO, HDIO_DRIVE_CMD as the fallback; read from a fresh
///   IDENTIFY (words 86, 91, 94: power_level_of). Unsupported where word 83 lacks the bit.
/// Write cache and look-ahead are only read (identify words 82, 85), never changed.
class AtaKnobs {
 public:
  explicit AtaKnobs(AtaTransport& transport) : transport_(transport) {}

  /// True for multcount, io_support, unmaskirq, using_dma, xfermode, apm and aam.
  static bool handles(SettingId id);

  /// IDENTIFY data: HDIO_GET_IDENTITY (the kernel's copy) first; otherwise SG_IO ATA
  /// PASS-THROUGH(16) IDENTIFY DEVICE, the 12-byte form when the 16-byte CDB is an unknown
  /// opcode, then IDENTIFY PACKET DEVICE (ATAPI). Decoded as IdentifySource::live.
  /// Errors: errc::not_supported when every way was refused as unsupported (loop, virtio,
  /// NVMe, a USB bridge without SAT), op "no identify data (<each refusal>)"; otherwise the
  /// last refusal.
  Result<IdentifyInfo> identify();
  /// IDENTIFY straight from the drive (SG_IO; the kernel's HDIO copy only when SG_IO is not
  /// available), for read-back: the HDIO copy can be stale after a raw command.
  Result<IdentifyInfo> drive_identify();

  /// How this device and driver handle `id`, discovered once and cached. Discovery writes
  /// only values that leave the setting as it was: the current value re-sent (multcount,
  /// unmaskirq, xfermode — what libata refuses for xfermode; using_dma only where
  /// HDIO_GET_DMA is refused, since a legacy HDIO_SET_DMA 1 re-selects the mode), or,
  /// for io_support, each of 0/1/3 followed by a restore of the original and a read-back.
  /// Results: supported (io_support: `values` = the values that set and read back),
  /// unsupported with the refusing call ("ioctl(HDIO_SET_DMA 1) on /dev/sda: Inappropriate
  /// ioctl for device", "SG_IO ATA_16 SET FEATURES 0x03 count=69 (xfermode) on /dev/sda:
  /// sense ILLEGAL REQUEST, invalid field in CDB (24/00)"), or read_only (a refusal that is
  /// not "unsupported", or io_support accepting only its current value).
  Capability capability(SettingId id);

  /// Current value (see the class comment for where each comes from).
  /// Errors: the refusing call (is_unsupported() where the driver lacks the knob);
  /// errc::not_supported for xfermode when nothing shows the current mode.
  Result<SettingValue> read(SettingId id);
  /// Change one knob. Errors: unsupported (is_unsupported(): ENOTTY, EINVAL, EOPNOTSUPP, sense
  /// "invalid field in CDB"), EIO = rejected by the drive (ATA status ERR), each naming the call.
  Result<void> apply(SettingId id, const SettingValue& value);

 private:
  Capability discover(SettingId id);
  Capability discover_io_support();
  Capability discover_by_resending(SettingId id);
  Result<SettingValue> current_for_probe(SettingId id);
  Result<SettingValue> read_multcount();
  Result<SettingValue> read_xfermode();
  Result<SettingValue> read_power_level(SettingId id);
  Result<void> apply_multcount(std::int64_t sectors);
  Result<void> ata_non_data(const AtaCommand& command);
  Result<std::array<std::byte, 512>> sg_identify(const AtaCommand& command);
  Result<std::array<std::byte, 512>> sg_identify_any();

  AtaTransport& transport_;
  std::map<SettingId, Capability> discovered_;
};

}  // namespace disktune::probe
