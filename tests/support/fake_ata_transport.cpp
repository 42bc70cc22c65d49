// SPDX-License-Identifier: GPL-2.0-or-later
// FakeAtaTransport: the SIMULATED driver's answers, built as the real kernel would (sense bytes included).
#include "tests/support/fake_ata_transport.hpp"

#include "probe/settings.hpp"

#include <cerrno>
#include <cstring>

namespace disktune::testing {
namespace {

using probe::AtaCommand;
using probe::HdioKnob;

// Descriptor sense with an ATA Status Return descriptor, as libata writes it for CK_COND
// (RECOVERED ERROR 00/1D) or a command the drive aborted (ABORTED COMMAND 00/00).
std::vector<std::uint8_t> descriptor_sense(std::uint8_t key, std::uint8_t ascq, std::uint8_t status,
                                           std::uint8_t error) {
  std::vector<std::uint8_t> sense(22, 0);
  sense[0] = 0x72;
  sense[1] = key;
  sense[3] = ascq;
  sense[7] = 14;
  sense[8] = 0x09;
  sense[9] = 0x0c;
  sense[11] = error;
  sense[20] = 0x40;
  sense[21] = status;
  return sense;
}

// Fixed sense ILLEGAL REQUEST, invalid field in CDB (24/00): libata's ata_scsi_set_invalid_field.
std::vector<std::uint8_t> invalid_field_sense() {
  std::vector<std::uint8_t> sense(18, 0);
  sense[0] = 0x70;
  sense[2] = 0x05;
  sense[7] = 10;
  sense[12] = 0x24;
  return sense;
}

void put_string(std::array<std::uint16_t, 256>& words, std::size_t first, std::size_t count, const char* text) {
  const std::size_t length = std::strlen(text);
  for (std::size_t i = 0; i < count; ++i) {
    const auto hi = 2 * i < length ? static_cast<unsigned char>(text[2 * i]) : ' ';
    const auto lo = 2 * i + 1 < length ? static_cast<unsigned char>(text[2 * i + 1]) : ' ';
    words[first + i] = static_cast<std::uint16_t>(hi << 8 | lo);
  }
}

probe::Error errno_at(int errnum, const std::string& op, const std::string& path) {
  return probe::errno_error(errnum, op, path);
}

}  // namespace

FakeAtaTransport::FakeAtaTransport(FakeDriver d, std::string path) : driver(d), path_(std::move(path)) {}

std::array<std::uint16_t, 256> FakeAtaTransport::identify_words() const {
  std::array<std::uint16_t, 256> w{};
  w[0] = 0x0040;
  put_string(w, 10, 10, "QM00001");
  put_string(w, 23, 4, "2.5+");
  put_string(w, 27, 20, "QEMU HARDDISK");
  w[47] = static_cast<std::uint16_t>(0x8000 | max_multsect);
  w[49] = 0x0f00;
  w[53] = 0x0006;
  w[59] = static_cast<std::uint16_t>(multsect ? 0x100 | multsect : 0);
  w[60] = 0x0000;
  w[61] = 0x0010;
  w[63] = 0x0007;
  w[64] = 0x0003;
  w[80] = 0x00f0;
  w[83] = static_cast<std::uint16_t>(0x4000 | (apm_supported ? 1 << 3 : 0) | (aam_supported ? 1 << 9 : 0));
  w[86] = static_cast<std::uint16_t>((apm_enabled ? 1 << 3 : 0) | (aam_enabled ? 1 << 9 : 0));
  w[91] = static_cast<std::uint16_t>(apm_supported ? 0x4000 | apm_level : 0);  // kept while disabled, as drives may
  w[94] = static_cast<std::uint16_t>(aam_supported ? aam_recommended << 8 | aam_level : 0);
  w[88] = 0x003f;
  const auto family = probe::xfermode_family(xfer_code);
  const int mode = probe::xfermode_number(xfer_code);
  if (family == probe::XferFamily::mdma) w[63] = static_cast<std::uint16_t>(w[63] | 0x100 << mode);
  if (family == probe::XferFamily::udma) w[88] = static_cast<std::uint16_t>(w[88] | 0x100 << mode);
  unsigned sum = 0xA5;
  for (std::size_t i = 0; i < 255; ++i) sum += (w[i] & 0xFFu) + (w[i] >> 8);
  w[255] = static_cast<std::uint16_t>(((256 - (sum & 0xFF)) & 0xFF) << 8 | 0xA5);
  return w;
}

probe::Result<std::int64_t> FakeAtaTransport::hdio_get(HdioKnob knob) {
  calls.push_back("hdio_get " + std::string(probe::hdio_get_name(knob)));
  const std::string op = "ioctl(" + std::string(probe::hdio_get_name(knob)) + ")";
  if (!answers_identify) return errno_at(ENOTTY, op, path_);
  if (knob == HdioKnob::io_support) return io_support;
  if (driver == FakeDriver::libata) return errno_at(ENOTTY, op, path_);
  if (knob == HdioKnob::multcount) return std::int64_t{multsect};
  return knob == HdioKnob::unmaskirq ? unmaskirq : using_dma;
}

probe::Result<void> FakeAtaTransport::hdio_set(HdioKnob knob, std::int64_t value) {
  const std::string op = "ioctl(" + std::string(probe::hdio_set_name(knob)) + " " + std::to_string(value) + ")";
  calls.push_back("hdio_set " + std::string(probe::hdio_set_name(knob)) + " " + std::to_string(value));
  if (!answers_identify) return errno_at(ENOTTY, op, path_);
  if (driver == FakeDriver::libata) {
    if (knob != HdioKnob::io_support) return errno_at(ENOTTY, op, path_);
    if (pio32_change)
      io_support = value ? 1 : 0;
    else if (value != io_support)
      return errno_at(EINVAL, op, path_);
    return {};
  }
  switch (knob) {
    case HdioKnob::multcount:
      if (value < 0 || value > max_multsect) return errno_at(EINVAL, op, path_);
      multsect = static_cast<int>(value);
      return {};
    case HdioKnob::io_support:
      if (!legacy_32bit_values.count(value)) return errno_at(EINVAL, op, path_);
      io_support = value;
      return {};
    case HdioKnob::unmaskirq:
    case HdioKnob::using_dma:
      if (value != 0 && value != 1) return errno_at(EINVAL, op, path_);
      (knob == HdioKnob::unmaskirq ? unmaskirq : using_dma) = value;
      return {};
  }
  return {};
}

probe::Result<std::array<std::byte, 512>> FakeAtaTransport::hdio_identity() {
  calls.emplace_back("hdio_identity");
  if (!answers_identify || !hdio_identity_works) return errno_at(ENOTTY, "ioctl(HDIO_GET_IDENTITY)", path_);
  std::array<std::byte, 512> block{};
  const auto words = identify_words();
  for (std::size_t i = 0; i < 256; ++i) {
    block[2 * i] = static_cast<std::byte>(words[i] & 0xFF);
    block[2 * i + 1] = static_cast<std::byte>(words[i] >> 8);
  }
  return block;
}

// SET FEATURES 05h/85h enable/disable APM, 42h/C2h AAM; COUNT is the level.
bool FakeAtaTransport::set_power_feature(const AtaCommand& command) {
  const bool apm = command.feature == 0x05 || command.feature == 0x85;
  const bool enable = command.feature == 0x05 || command.feature == 0x42;
  if (!apm && command.feature != 0x42 && command.feature != 0xC2) return false;
  if (!(apm ? apm_supported : aam_supported) || (apm && enable && command.count == 0)) return false;
  (apm ? apm_enabled : aam_enabled) = enable;
  if (enable) (apm ? apm_level : aam_level) = command.count;
  return true;
}

probe::Result<std::optional<probe::AtaStatusReturn>> FakeAtaTransport::answer(const AtaCommand& command,
                                                                              const std::string& op) {
  std::vector<std::uint8_t> sense;
  const bool set_features = command.command == probe::kAtaSetFeatures;
  const bool xfer = set_features && command.feature == probe::kSetFeaturesXferMode;
  if (set_features && !xfer) {
    sense = set_power_feature(command) ? descriptor_sense(0x01, 0x1D, 0x50, 0x00)
                                       : descriptor_sense(0x0B, 0x00, 0x51, 0x04);
  } else if (xfer && driver == FakeDriver::libata) {
    sense = invalid_field_sense();
  } else if (command.command == probe::kAtaSetMultipleMode && aborted_multcounts.count(command.count)) {
    sense = descriptor_sense(0x0B, 0x00, 0x51, 0x04);
  } else {
    if (command.command == probe::kAtaSetMultipleMode) multsect = command.count;
    if (xfer) xfer_code = command.count;
    sense = descriptor_sense(0x01, 0x1D, 0x50, 0x00);
  }
  return probe::interpret_sg_io({0x02, 0, 0x08, sense}, op, path_);
}

probe::Result<std::optional<probe::AtaStatusReturn>> FakeAtaTransport::sg_ata(const AtaCommand& command,
                                                                              int cdb_bytes,
                                                                              std::span<std::byte> data) {
  calls.push_back("sg_ata " + std::to_string(cdb_bytes) + " " + command.name);
  const std::string op = "SG_IO ATA_" + std::to_string(cdb_bytes) + " " + command.name;
  if (!answers_identify) return errno_at(ENOTTY, "ioctl(" + op + ")", path_);
  if (driver == FakeDriver::legacy_ide) return errno_at(EINVAL, "ioctl(" + op + ")", path_);
  if (!knows_ata16 && cdb_bytes == 16) {
    std::vector<std::uint8_t> sense = invalid_field_sense();
    sense[12] = 0x20;
    return probe::interpret_sg_io({0x02, 0, 0x08, sense}, op, path_);
  }
  if (atapi && command.command == probe::kAtaIdentifyDevice)
    return probe::interpret_sg_io({0x02, 0, 0x08, descriptor_sense(0x0B, 0x00, 0x51, 0x04)}, op, path_);
  if (zero_identify && command.data_bytes > 0) return std::optional<probe::AtaStatusReturn>{};
  if (command.command == probe::kAtaIdentifyDevice || command.command == probe::kAtaIdentifyPacketDevice) {
    auto words = identify_words();
    if (atapi) words[0] = 0x85c0;
    for (std::size_t i = 0; i < 256; ++i) {
      data[2 * i] = static_cast<std::byte>(words[i] & 0xFF);
      data[2 * i + 1] = static_cast<std::byte>(words[i] >> 8);
    }
    return std::optional<probe::AtaStatusReturn>{};
  }
  return answer(command, op);
}

probe::Result<void> FakeAtaTransport::drive_cmd(const AtaCommand& command) {
  calls.push_back("drive_cmd " + command.name);
  const std::string op = "ioctl(HDIO_DRIVE_CMD " + command.name + ")";
  if (!answers_identify) return errno_at(ENOTTY, op, path_);
  auto answered = answer(command, op);
  if (!answered) return errno_at(answered.error().code == std::errc::io_error ? EIO : EINVAL, op, path_);
  return {};
}

probe::Result<std::string> FakeAtaTransport::libata_xfer_mode() {
  calls.emplace_back("libata_xfer_mode");
  if (driver != FakeDriver::libata || !answers_identify) return errno_at(ENOENT, "find libata device", path_);
  const int mode = probe::xfermode_number(xfer_code);
  switch (*probe::xfermode_family(xfer_code)) {
    case probe::XferFamily::udma: return "XFER_UDMA_" + std::to_string(mode);
    case probe::XferFamily::mdma: return "XFER_MW_DMA_" + std::to_string(mode);
    case probe::XferFamily::sdma: return "XFER_SW_DMA_" + std::to_string(mode);
    case probe::XferFamily::pio: return "XFER_PIO_" + std::to_string(mode);
  }
  return std::string("XFER_PIO_SLOW");
}

}  // namespace disktune::testing
