// SPDX-License-Identifier: GPL-2.0-or-later
// ATA commands, SAT ATA PASS-THROUGH CDBs and SCSI sense decoding: pure functions, no ioctls.
#pragma once

#include "probe/core/error.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <system_error>

namespace disktune::probe {

/// SAT PROTOCOL field values (CDB byte 1 bits 4:1) disktune uses. Source: docs/ata-reference.md §3.2.
enum class AtaProtocol : std::uint8_t { non_data = 3, pio_in = 4 };

/// One ATA command in 28-bit taskfile form. `data_bytes` is 0 (non-data) or 512 (one sector
/// read from the device). `name` is what messages call it ("IDENTIFY", "SET FEATURES 0x03
/// (xfermode)").
struct AtaCommand {
  std::uint8_t command = 0;   ///< COMMAND register (opcode)
  std::uint8_t feature = 0;   ///< FEATURES register (SET FEATURES subcommand)
  std::uint8_t count = 0;     ///< COUNT register (sectors, multcount, transfer mode)
  std::uint8_t lba_low = 0;   ///< LBA 7:0
  std::uint8_t lba_mid = 0;   ///< LBA 15:8
  std::uint8_t lba_high = 0;  ///< LBA 23:16
  std::uint8_t device = 0x40;  ///< hdparm sets the LBA bit
  AtaProtocol protocol = AtaProtocol::non_data;  ///< non-data or PIO data-in
  std::size_t data_bytes = 0;  ///< bytes read from the device: 0 or 512
  std::string name;            ///< for messages: "IDENTIFY", "SET MULTIPLE MODE 0xC6 count=16 (multcount)"
};

/// ATA command opcodes used here (ACS-3 §7).
inline constexpr std::uint8_t kAtaIdentifyDevice = 0xEC;
inline constexpr std::uint8_t kAtaIdentifyPacketDevice = 0xA1;
inline constexpr std::uint8_t kAtaSetMultipleMode = 0xC6;
inline constexpr std::uint8_t kAtaSetFeatures = 0xEF;
/// SET FEATURES subcommand "set transfer mode" (value in COUNT, docs/ata-reference.md §3.4).
inline constexpr std::uint8_t kSetFeaturesXferMode = 0x03;

/// IDENTIFY DEVICE (0xEC): PIO data-in, one 512-byte sector.
AtaCommand identify_device_command();
/// IDENTIFY PACKET DEVICE (0xA1): PIO data-in, one 512-byte sector (ATAPI devices).
AtaCommand identify_packet_command();
/// SET MULTIPLE MODE (0xC6), non-data, COUNT = sectors per DRQ block (0 disables on drives
/// that allow it). Source: docs/ata-reference.md §3.3 (-m).
AtaCommand set_multiple_command(std::uint8_t sectors);
/// SET FEATURES (0xEF) subcommand 0x03 (FEATURES), COUNT = hdparm -X code (8+n PIO, 32+n
/// MDMA, 64+n UDMA). Source: docs/ata-reference.md §3.4.
AtaCommand set_xfermode_command(std::uint8_t code);
/// SET FEATURES for hdparm -B: level 1-254 = subcommand 0x05 (enable APM), COUNT = level;
/// 255 = subcommand 0x85 (disable APM), COUNT 0. Source: hdparm.c (-B), docs/ata-reference.md §5.
AtaCommand set_apm_command(std::uint8_t level);
/// SET FEATURES for hdparm -M: level 1-255 = subcommand 0x42 (enable AAM), COUNT = level;
/// 0 = subcommand 0xC2 (disable AAM). Source: hdparm.c (-M), docs/ata-reference.md §5.
AtaCommand set_aam_command(std::uint8_t level);

/// ATA PASS-THROUGH(16) CDB (opcode 0x85) as hdparm's sgio.c builds it: byte 1 = protocol
/// << 1; byte 2 = 0x0e for a 512-byte read (T_DIR, BYT_BLOK, T_LENGTH = COUNT), 0x20 (CK_COND,
/// so the registers come back in the sense data) for non-data; registers in bytes 4, 6, 8,
/// 10, 12, 13, 14. Source: docs/ata-reference.md §3.2 (worked CDBs).
std::array<std::uint8_t, 16> build_ata16_cdb(const AtaCommand& command);
/// ATA PASS-THROUGH(12) CDB (opcode 0xA1), the same fields in bytes 1-9. Not for IDENTIFY
/// PACKET (0xA1 is MMC BLANK on optical drives; hdparm forces the 16-byte form).
std::array<std::uint8_t, 12> build_ata12_cdb(const AtaCommand& command);

/// The ATA registers a SAT layer returns: the ATA Status Return descriptor (0x09) of
/// descriptor sense, or the INFORMATION / COMMAND-SPECIFIC fields of fixed sense.
struct AtaStatusReturn {
  std::uint8_t error = 0;     ///< ERROR register (0x04 = ABRT)
  std::uint8_t status = 0;    ///< STATUS register (0x50 = DRDY|DSC, 0x51 = ... |ERR)
  std::uint8_t count = 0;     ///< COUNT 7:0
  std::uint8_t lba_low = 0;   ///< LBA 7:0
  std::uint8_t lba_mid = 0;   ///< LBA 15:8
  std::uint8_t lba_high = 0;  ///< LBA 23:16
  std::uint8_t device = 0;    ///< DEVICE register
  bool extend = false;        ///< 48-bit registers (EXTEND bit)
  /// status & ERR (0x01) or DRQ (0x08): the drive failed the command (hdparm's test).
  [[nodiscard]] bool failed() const { return (status & 0x09) != 0; }
};

/// Decoded SCSI sense data.
struct SenseData {
  std::uint8_t response_code = 0;  ///< 0x70/0x71 fixed, 0x72/0x73 descriptor
  std::uint8_t key = 0;            ///< sense key (5 = ILLEGAL REQUEST, 0xB = ABORTED COMMAND)
  std::uint8_t asc = 0;
  std::uint8_t ascq = 0;
  std::optional<AtaStatusReturn> ata;  ///< when the sense carries ATA registers
};

/// Decode a sense buffer (`sense` holds the bytes the HBA wrote: sb_len_wr of SG_IO).
/// Descriptor format: key byte 1, ASC/ASCQ bytes 2/3, descriptors from byte 8 for byte 7
/// bytes; the ATA Status Return descriptor is type 0x09 length 0x0c (error desc[3], count
/// desc[5], LBA desc[7]/[9]/[11], device desc[12], status desc[13], EXTEND desc[2] bit 0).
/// Fixed format: key byte 2 bits 3:0, ASC/ASCQ bytes 12/13; ATA registers (error byte 3,
/// status 4, device 5, count 6, LBA 9-11, EXTEND byte 8 bit 7) when VALID (byte 0 bit 7) is
/// set, as libata's ata_scsi_set_passthru_sense_fields writes them.
/// nullopt when the buffer is empty or the response code is not 0x70-0x73.
/// Source: SPC-4 §4.5, SAT-3 §12.2.2.6 / §12.2.5; docs/ata-reference.md §3.2.
std::optional<SenseData> decode_sense(std::span<const std::uint8_t> sense);

/// "ILLEGAL REQUEST" etc. for a sense key; "sense key 0x0e" for unnamed ones.
std::string sense_key_name(std::uint8_t key);
/// "invalid field in CDB" for 24/00 etc., "" for an ASC/ASCQ pair not in the table.
std::string asc_name(std::uint8_t asc, std::uint8_t ascq);
/// "ILLEGAL REQUEST, invalid field in CDB (24/00)"; the ATA registers follow when present
/// (", ATA status 0x51 error 0x04").
std::string describe_sense(const SenseData& sense);

/// True when the sense means "this command or field is not supported" (ILLEGAL REQUEST with
/// invalid command operation code 20/00 or invalid field in CDB 24/00): the knob is
/// unsupported here, not rejected by a drive.
bool sense_means_unsupported(const SenseData& sense);

/// The error category of SCSI sense refusals. A code's value packs key << 16 | asc << 8 |
/// ascq; message() is "sense ILLEGAL REQUEST, invalid field in CDB (24/00)";
/// default_error_condition() is errc::operation_not_supported when sense_means_unsupported,
/// errc::io_error otherwise, so Error::is_unsupported() and `code == errc::io_error` work.
const std::error_category& sense_category();
/// The error_code of a sense refusal (see sense_category).
std::error_code make_sense_error_code(const SenseData& sense);

/// What one SG_IO call returned (sg_io_hdr fields), independent of <scsi/sg.h>.
struct SgIoOutcome {
  std::uint8_t scsi_status = 0;   ///< status (SAM: 0 GOOD, 2 CHECK CONDITION)
  std::uint16_t host_status = 0;  ///< host_status (0 = DID_OK)
  std::uint16_t driver_status = 0;
  std::span<const std::uint8_t> sense;  ///< the sb_len_wr bytes of sense
};

/// Verdict on an SG_IO ATA pass-through: the returned registers (when the sense carried
/// them), or an Error with `op` and `path`:
/// - sense ILLEGAL REQUEST 20/00 or 24/00: code in sense_category() (is_unsupported());
/// - registers with ERR/DRQ: plain EIO, op + " (ATA status 0x51 error 0x04)": the drive
///   rejected the command;
/// - any other sense key than NO SENSE / RECOVERED ERROR: EIO with the sense in op;
/// - a host or driver status (other than DRIVER_SENSE): EBADE, the command did not reach an
///   ATA drive (hdparm then falls back to HDIO_DRIVE_CMD).
/// Source: hdparm sgio.c sg16(); libata-scsi.c ata_gen_passthru_sense.
Result<std::optional<AtaStatusReturn>> interpret_sg_io(const SgIoOutcome& outcome,
                                                       const std::string& op,
                                                       const std::string& path);

}  // namespace disktune::probe
