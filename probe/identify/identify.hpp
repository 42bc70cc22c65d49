// SPDX-License-Identifier: GPL-2.0-or-later
// IdentifyInfo: what a drive's ATA IDENTIFY (PACKET) DEVICE data says, and the word decoder.
#pragma once

#include "probe/core/error.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace disktune::probe {

/// Device class from word 0 (bit 15 = ATAPI) and the CFA signature 0x848A / word 83 bit 2.
enum class DeviceType { ata, atapi, cfa };
/// Word 255 integrity: signature 0xA5 present and the 8-bit sum of all 512 bytes is 0 (valid)
/// or not (invalid); signature absent (absent); words not available, as in -i text (unknown).
enum class Checksum { valid, invalid, absent, unknown };
/// Where the record came from.
enum class IdentifySource { raw, hdparm_i, hdparm_I, live };

/// One feature from words 82-87: whether the drive supports it and whether it is enabled.
/// `enabled` is nullopt when the source does not say (e.g. -i text shows only some features).
struct Feature {
  bool supported = false;
  std::optional<bool> enabled;
};

/// What IDENTIFY DEVICE says, decoded. Mode lists hold mode numbers in ascending order.
/// Text sources fill what they show; the rest stays at its "not reported" value
/// (nullopt / empty), never a guess. Source: docs/ata-reference.md §1.2 (ATA/ATAPI-7 vol. 1 Table 16,
/// ACS-3 Table 45), hdparm identify.c.
struct IdentifyInfo {
  std::string model;     ///< words 27-46, blanks trimmed
  std::string serial;    ///< words 10-19, blanks trimmed
  std::string firmware;  ///< words 23-26, blanks trimmed
  DeviceType device_type = DeviceType::ata;

  int max_multsect = 0;           ///< word 47 bits 7:0 (0 = READ/WRITE MULTIPLE not supported)
  std::optional<int> multsect;    ///< word 59 bits 7:0, only when bit 8 (valid) is set

  bool dma_supported = false;     ///< word 49 bit 8
  bool lba_supported = false;     ///< word 49 bit 9
  bool iordy_supported = false;   ///< word 49 bit 11
  bool iordy_can_disable = false; ///< word 49 bit 10

  std::vector<int> pio_modes;     ///< 0-2 from word 51 bits 15:8, 3/4 from word 64 (if word 53 bit 1)
  std::vector<int> sdma_modes;    ///< word 62 bits 2:0 (obsolete)
  std::optional<int> sdma_active; ///< word 62 bits 10:8
  std::vector<int> mdma_modes;    ///< word 63 bits 2:0
  std::optional<int> mdma_active; ///< word 63 bits 10:8 (one-hot)
  std::vector<int> udma_modes;    ///< word 88 bits 6:0 (only if word 53 bit 2)
  std::optional<int> udma_active; ///< word 88 bits 14:8 (one-hot)

  /// Word 93 bit 13 with bits 15:14 = 01 (PATA hardware reset result): true = 80-conductor
  /// cable detected, false = 40-wire, nullopt = not reported (word 93 invalid, SATA, or text
  /// that does not show it).
  std::optional<bool> cable_80wire;
  bool is_sata = false;           ///< word 76 not in {0, 0xFFFF} or word 222 bits 15:12 = 1
  /// Word 217, nominal media rotation rate: 1 = non-rotating (SSD), else rpm (0401h-FFFEh);
  /// nullopt = not reported (0, FFFFh, reserved values, or text without the line). -I text:
  /// "Nominal Media Rotation Rate: 7200" / "Solid State Device".
  std::optional<int> rotation_rate;
  /// Commands the drive queues: word 75 bits 4:0 + 1 when word 76 bit 8 (NCQ) is set; -I
  /// text of a SATA drive: "Queue depth: N" > 1 (hdparm prints word 75; a parallel drive's is
  /// legacy TCQ, left out). nullopt = no queuing reported.
  std::optional<int> queue_depth;

  std::vector<int> ata_major_versions;  ///< word 80 bits 1-14: ATA/ATAPI-n supported
  std::optional<std::uint16_t> ata_minor_version;  ///< word 81 (0 / 0xFFFF = not reported)

  Feature write_cache;  ///< word 82/85 bit 5
  Feature look_ahead;   ///< word 82/85 bit 6
  Feature apm;          ///< word 83/86 bit 3 (value in word 91)
  Feature aam;          ///< word 83/86 bit 9 (value in word 94)
  Feature lba48;        ///< word 83/86 bit 10
  /// Current APM level (word 91 bits 7:0, 1-254) while APM is enabled (word 86 bit 3); -I
  /// text "Advanced power management level: N". nullopt = disabled, unsupported or not shown.
  std::optional<int> apm_level;
  /// Current AAM level (word 94 bits 7:0) while AAM is enabled (word 86 bit 9); -I text
  /// "Recommended acoustic management value: R, current value: N". nullopt = not shown.
  std::optional<int> aam_level;
  /// The vendor's recommended AAM level (word 94 bits 15:8) where AAM is supported.
  std::optional<int> aam_recommended;

  /// User-addressable sectors as hdparm's get_lba_capacity computes it: words 57-58,
  /// then 60-61 if LBA, then 100-103 if 48-bit is supported and enabled.
  std::uint64_t lba_sectors = 0;

  Checksum checksum = Checksum::unknown;
  IdentifySource source = IdentifySource::raw;
  /// Oddities found while decoding or parsing (a non-power-of-two MaxMultSect, an invalid
  /// checksum, an unparsed line, ...). Never fatal.
  std::vector<std::string> warnings;
  /// The 256 words when the source had them (raw dumps, live identify); empty for text.
  std::optional<std::array<std::uint16_t, 256>> words;
};

/// Decode 256 IDENTIFY words (host-order values, strings with the first character in the
/// high byte, as ATA sends them; docs/ata-reference.md §1.1). Never fails: oddities become warnings.
IdentifyInfo decode_identify(const std::array<std::uint16_t, 256>& words, IdentifySource source);

/// Decode a 512-byte IDENTIFY block (little-endian words, as SG_IO returns it).
/// Errors: errc::invalid_argument when block.size() != 512.
Result<IdentifyInfo> decode_identify_block(std::span<const std::byte> block, IdentifySource source);

/// Word 255 check: valid / invalid (8-bit sum of all 512 bytes != 0) / absent (low byte != 0xA5).
Checksum identify_checksum(const std::array<std::uint16_t, 256>& words);

/// JSON/text names of the enums: "ata"/"atapi"/"cfa", "valid"/"invalid"/"absent"/"unknown",
/// "raw"/"hdparm-i"/"hdparm-I"/"live".
std::string_view to_string(DeviceType type);
std::string_view to_string(Checksum checksum);
std::string_view to_string(IdentifySource source);

/// One-line human summary for logs, report headers and test failure messages, e.g.
/// "IBM-DJNA-352500 fw J51OA30K (ata, hdparm-i): MaxMultSect 16, MultSect 16, PIO 0-4,
/// MDMA 0-2, UDMA 0-4 (active udma2), LBA 49981680 sectors, 1 warning". Modes print as
/// ranges when contiguous; the active mode is named when known.
std::string identify_summary(const IdentifyInfo& info);

/// Writes identify_summary(info); lets Catch2 print a Result<IdentifyInfo>.
std::ostream& operator<<(std::ostream& out, const IdentifyInfo& info);

}  // namespace disktune::probe
