// SPDX-License-Identifier: GPL-2.0-or-later
// ATA PASS-THROUGH CDBs (SAT), sense decoding and the verdict on an SG_IO call: pure code.
#include "probe/linux/ata_passthrough.hpp"

#include <cstdio>

namespace disktune::probe {
namespace {

constexpr std::uint8_t kSenseNoSense = 0x0;
constexpr std::uint8_t kSenseRecovered = 0x1;
constexpr std::uint8_t kSenseIllegalRequest = 0x5;
constexpr std::uint8_t kDriverSense = 0x08;  // SG_DRIVER_SENSE: sense data present, not a failure
constexpr std::uint8_t kAtaStatusReturnDescriptor = 0x09;

std::string hex2(unsigned value) {
  char text[16];
  std::snprintf(text, sizeof text, "%02x", value);
  return text;
}

std::uint8_t byte_1(const AtaCommand& command) {
  return static_cast<std::uint8_t>(static_cast<unsigned>(command.protocol) << 1);
}

// T_DIR | BYT_BLOK | T_LENGTH=COUNT for a read; CK_COND for non-data (registers come back).
std::uint8_t byte_2(const AtaCommand& command) {
  return command.data_bytes > 0 ? std::uint8_t{0x0e} : std::uint8_t{0x20};
}

std::optional<AtaStatusReturn> descriptor_ata(std::span<const std::uint8_t> sense) {
  std::size_t end = 8 + static_cast<std::size_t>(sense[7]);
  if (end > sense.size()) end = sense.size();
  for (std::size_t at = 8; at + 2 <= end;) {
    const auto type = sense[at];
    const auto length = static_cast<std::size_t>(sense[at + 1]);
    if (type == kAtaStatusReturnDescriptor && length >= 12 && at + 14 <= end) {
      const auto d = sense.subspan(at, 14);
      return AtaStatusReturn{d[3], d[13], d[5], d[7], d[9], d[11], d[12], (d[2] & 1) != 0};
    }
    at += 2 + length;
  }
  return std::nullopt;
}

std::optional<AtaStatusReturn> fixed_ata(std::span<const std::uint8_t> sense) {
  if ((sense[0] & 0x80) == 0 || sense.size() < 12) return std::nullopt;
  return AtaStatusReturn{sense[3], sense[4], sense[6], sense[9], sense[10], sense[11], sense[5],
                         (sense[8] & 0x80) != 0};
}

std::string ata_registers_text(const AtaStatusReturn& ata) {
  return "ATA status 0x" + hex2(ata.status) + " error 0x" + hex2(ata.error);
}

class SenseCategory final : public std::error_category {
 public:
  [[nodiscard]] const char* name() const noexcept override { return "scsi-sense"; }
  [[nodiscard]] std::string message(int value) const override {
    SenseData sense;
    sense.key = static_cast<std::uint8_t>((value >> 16) & 0xFF);
    sense.asc = static_cast<std::uint8_t>((value >> 8) & 0xFF);
    sense.ascq = static_cast<std::uint8_t>(value & 0xFF);
    return "sense " + describe_sense(sense);
  }
  [[nodiscard]] std::error_condition default_error_condition(int value) const noexcept override {
    SenseData sense;
    sense.key = static_cast<std::uint8_t>((value >> 16) & 0xFF);
    sense.asc = static_cast<std::uint8_t>((value >> 8) & 0xFF);
    sense.ascq = static_cast<std::uint8_t>(value & 0xFF);
    return sense_means_unsupported(sense) ? std::errc::operation_not_supported : std::errc::io_error;
  }
};

}  // namespace

AtaCommand identify_device_command() {
  return AtaCommand{kAtaIdentifyDevice, 0, 1, 0, 0, 0, 0x40, AtaProtocol::pio_in, 512, "IDENTIFY"};
}

AtaCommand identify_packet_command() {
  return AtaCommand{kAtaIdentifyPacketDevice, 0, 1, 0, 0, 0, 0x40, AtaProtocol::pio_in, 512,
                    "IDENTIFY PACKET"};
}

AtaCommand set_multiple_command(std::uint8_t sectors) {
  return AtaCommand{kAtaSetMultipleMode, 0,   sectors, 0, 0, 0, 0x40, AtaProtocol::non_data, 0,
                    "SET MULTIPLE MODE 0xC6 count=" + std::to_string(sectors) + " (multcount)"};
}

AtaCommand set_xfermode_command(std::uint8_t code) {
  return AtaCommand{kAtaSetFeatures, kSetFeaturesXferMode, code, 0, 0, 0, 0x40, AtaProtocol::non_data, 0,
                    "SET FEATURES 0x03 count=" + std::to_string(code) + " (xfermode)"};
}

namespace {

AtaCommand set_features(std::uint8_t subcommand, std::uint8_t count, const std::string& what) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", subcommand);
  return AtaCommand{kAtaSetFeatures, subcommand, count, 0, 0, 0, 0x40, AtaProtocol::non_data, 0,
                    "SET FEATURES " + std::string(hex) + " count=" + std::to_string(count) + " (" + what + ")"};
}

}  // namespace

AtaCommand set_apm_command(std::uint8_t level) {
  return level == 255 ? set_features(0x85, 0, "apm off") : set_features(0x05, level, "apm");
}

AtaCommand set_aam_command(std::uint8_t level) {
  return level == 0 ? set_features(0xC2, 0, "aam off") : set_features(0x42, level, "aam");
}

std::array<std::uint8_t, 16> build_ata16_cdb(const AtaCommand& command) {
  return {0x85,         byte_1(command),  byte_2(command), 0, command.feature, 0, command.count, 0,
          command.lba_low, 0, command.lba_mid, 0, command.lba_high, command.device, command.command, 0};
}

std::array<std::uint8_t, 12> build_ata12_cdb(const AtaCommand& command) {
  return {0xA1,           byte_1(command), byte_2(command),  command.feature, command.count, command.lba_low,
          command.lba_mid, command.lba_high, command.device, command.command, 0, 0};
}

std::optional<SenseData> decode_sense(std::span<const std::uint8_t> sense) {
  if (sense.empty()) return std::nullopt;
  SenseData data;
  data.response_code = sense[0] & 0x7F;
  if (data.response_code == 0x72 || data.response_code == 0x73) {
    if (sense.size() < 8) return std::nullopt;
    data.key = sense[1] & 0x0F;
    data.asc = sense[2];
    data.ascq = sense[3];
    data.ata = descriptor_ata(sense);
    return data;
  }
  if (data.response_code == 0x70 || data.response_code == 0x71) {
    if (sense.size() < 14) return std::nullopt;
    data.key = sense[2] & 0x0F;
    data.asc = sense[12];
    data.ascq = sense[13];
    data.ata = fixed_ata(sense);
    return data;
  }
  return std::nullopt;
}

std::string sense_key_name(std::uint8_t key) {
  static constexpr std::array<const char*, 12> kNames{
      "NO SENSE",       "RECOVERED ERROR", "NOT READY",       "MEDIUM ERROR",
      "HARDWARE ERROR", "ILLEGAL REQUEST", "UNIT ATTENTION",  "DATA PROTECT",
      "BLANK CHECK",    "VENDOR SPECIFIC", "COPY ABORTED",    "ABORTED COMMAND"};
  if (key < kNames.size()) return kNames[key];
  return "sense key 0x" + hex2(key);
}

std::string asc_name(std::uint8_t asc, std::uint8_t ascq) {
  struct Entry {
    std::uint8_t asc, ascq;
    const char* name;
  };
  static constexpr std::array<Entry, 9> kTable{{
      {0x00, 0x00, "no additional sense information"},
      {0x00, 0x1D, "ATA pass-through information available"},
      {0x04, 0x00, "logical unit not ready"},
      {0x11, 0x04, "unrecovered read error - auto reallocate failed"},
      {0x20, 0x00, "invalid command operation code"},
      {0x24, 0x00, "invalid field in CDB"},
      {0x26, 0x00, "invalid field in parameter list"},
      {0x29, 0x00, "power on, reset, or bus device reset occurred"},
      {0x44, 0x00, "internal target failure"},
  }};
  for (const auto& entry : kTable)
    if (entry.asc == asc && entry.ascq == ascq) return entry.name;
  return "";
}

std::string describe_sense(const SenseData& sense) {
  std::string text = sense_key_name(sense.key);
  const auto asc_text = asc_name(sense.asc, sense.ascq);
  text += ", " + (asc_text.empty() ? std::string("additional sense") : asc_text) + " (" + hex2(sense.asc) +
          "/" + hex2(sense.ascq) + ")";
  if (sense.ata) text += ", " + ata_registers_text(*sense.ata);
  return text;
}

bool sense_means_unsupported(const SenseData& sense) {
  return sense.key == kSenseIllegalRequest && (sense.asc == 0x20 || sense.asc == 0x24) && sense.ascq == 0;
}

const std::error_category& sense_category() {
  static const SenseCategory category;
  return category;
}

std::error_code make_sense_error_code(const SenseData& sense) {
  return {sense.key << 16 | sense.asc << 8 | sense.ascq, sense_category()};
}

Result<std::optional<AtaStatusReturn>> interpret_sg_io(const SgIoOutcome& outcome, const std::string& op,
                                                       const std::string& path) {
  const auto sense = decode_sense(outcome.sense);
  if (sense && sense_means_unsupported(*sense)) return Error{make_sense_error_code(*sense), op, path};
  if (sense && sense->ata && sense->ata->failed())
    return errno_error(EIO, op + " (" + ata_registers_text(*sense->ata) + ")", path);
  if (sense && sense->key != kSenseNoSense && sense->key != kSenseRecovered)
    return errno_error(EIO, op + " (sense " + describe_sense(*sense) + ")", path);
  if (outcome.host_status != 0 || (outcome.driver_status & ~kDriverSense) != 0)
    return errno_error(EBADE,
                       op + " (host status 0x" + hex2(outcome.host_status) + ", driver status 0x" +
                           hex2(outcome.driver_status) + ")",
                       path);
  if (!sense && outcome.scsi_status != 0)
    return errno_error(EIO, op + " (SCSI status 0x" + hex2(outcome.scsi_status) + " without sense)", path);
  return sense ? sense->ata : std::nullopt;
}

}  // namespace disktune::probe
