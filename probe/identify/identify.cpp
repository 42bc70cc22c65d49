// SPDX-License-Identifier: GPL-2.0-or-later
// decode_identify: the 256 IDENTIFY words turned into an IdentifyInfo (docs/ata-reference.md §1.2).
#include "probe/identify/identify.hpp"

#include "probe/core/assert.hpp"
#include "probe/identify/identify_modes.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <string_view>

namespace disktune::probe {
namespace {

using Words = std::array<std::uint16_t, 256>;

// Word numbers used below (ATA/ATAPI-7 vol. 1 Table 16, ACS-3 Table 45).
constexpr std::size_t w_general_config = 0;
constexpr std::size_t w_serial = 10;
constexpr std::size_t w_firmware = 23;
constexpr std::size_t w_model = 27;
constexpr std::size_t w_max_multsect = 47;
constexpr std::size_t w_capabilities = 49;
constexpr std::size_t w_legacy_pio = 51;
constexpr std::size_t w_field_valid = 53;
constexpr std::size_t w_multsect = 59;
constexpr std::size_t w_sdma = 62;
constexpr std::size_t w_mdma = 63;
constexpr std::size_t w_adv_pio = 64;
constexpr std::size_t w_queue_depth = 75;
constexpr std::size_t w_sata_cap = 76;
constexpr std::size_t w_major = 80;
constexpr std::size_t w_minor = 81;
constexpr std::size_t w_cmd_set_1 = 82;
constexpr std::size_t w_cmd_set_2 = 83;
constexpr std::size_t w_cmd_enabled_1 = 85;
constexpr std::size_t w_cmd_enabled_2 = 86;
constexpr std::size_t w_udma = 88;
constexpr std::size_t w_apm_level = 91;
constexpr std::size_t w_hw_reset = 93;
constexpr std::size_t w_aam_level = 94;
constexpr std::size_t w_rotation = 217;
constexpr std::size_t w_transport = 222;
constexpr std::size_t w_integrity = 255;

constexpr std::uint16_t cfa_signature = 0x848A;

bool bit(std::uint16_t word, int n) { return ((word >> n) & 1U) != 0; }

// Bits 15:14 = 01: the word is valid (docs/ata-reference.md §1.2 validity convention).
bool valid_word(std::uint16_t word) { return (word & 0xC000U) == 0x4000U; }

bool reported(std::uint16_t word) { return word != 0x0000 && word != 0xFFFF; }

// ATA strings: first character in the high byte; NULs dropped (as hdparm's print_ascii),
// other non-printable bytes replaced by '?' and reported; surrounding blanks trimmed.
std::string ata_string(const Words& words, std::size_t first, std::size_t count,
                       std::string_view what, std::vector<std::string>& warnings) {
  std::string text;
  for (std::size_t i = first; i < first + count; ++i) {
    for (const int shift : {8, 0}) {
      const auto c = static_cast<char>((words[i] >> shift) & 0xFFU);
      if (c != '\0') text.push_back(c);
    }
  }
  return printable_text(text, what, warnings);
}

DeviceType device_type_of(const Words& words) {
  const std::uint16_t config = words[w_general_config];
  if (config == cfa_signature) return DeviceType::cfa;
  if (bit(config, 15) && !bit(config, 14)) return DeviceType::atapi;
  const std::uint16_t cmd2 = words[w_cmd_set_2];
  if (!bit(config, 15) && valid_word(cmd2) && bit(cmd2, 2)) return DeviceType::cfa;
  return DeviceType::ata;
}

void decode_multiple(const Words& words, IdentifyInfo& info) {
  info.max_multsect = words[w_max_multsect] & 0xFF;
  if (info.max_multsect != 0 && !std::has_single_bit(static_cast<unsigned>(info.max_multsect))) {
    info.warnings.push_back("word 47: MaxMultSect " + std::to_string(info.max_multsect) +
                            " is not a power of two");
  }
  if (bit(words[w_multsect], 8)) info.multsect = words[w_multsect] & 0xFF;
}

void decode_capabilities(const Words& words, IdentifyInfo& info) {
  const std::uint16_t caps = words[w_capabilities];
  info.dma_supported = bit(caps, 8);
  info.lba_supported = bit(caps, 9);
  info.iordy_can_disable = bit(caps, 10);
  info.iordy_supported = bit(caps, 11);
}

// PIO: 0..min(word 51 high byte, 2), plus 3/4 from word 64 when word 53 bit 1 says it is
// valid. A device reporting mode 3 or 4 supports all lower modes (hdparm -I prints pio0-2
// for it too), so 0-2 are added then.
void decode_pio(const Words& words, IdentifyInfo& info) {
  const int legacy = words[w_legacy_pio] >> 8;
  if (legacy > 2) {
    info.warnings.push_back("word 51: legacy PIO mode " + std::to_string(legacy) +
                            " is above 2; taken as 2");
  }
  unsigned mask = (2U << std::min(legacy, 2)) - 1U;
  if (bit(words[w_field_valid], 1)) mask |= (words[w_adv_pio] & 0x3U) << 3;
  info.pio_modes = normalise_pio(mask_to_modes(mask, 5));
}

void decode_dma_modes(const Words& words, IdentifyInfo& info) {
  const auto family = [&](std::uint16_t word, int count, std::string_view name,
                          std::vector<int>& modes, std::optional<int>& active) {
    const unsigned supported = word & 0xFFU;
    const unsigned selected = (word >> 8) & 0xFFU;
    modes = mask_to_modes(supported, count);
    if ((supported >> count) != 0U || (selected >> count) != 0U) {
      info.warnings.push_back(std::string(name) + ": reserved mode bits set (word value 0x" +
                              hex4(word) + ")");
    }
    active = one_hot_mode(selected & ((1U << count) - 1U), name, info.warnings);
    check_active_supported(active, modes, name, info.warnings);
  };
  family(words[w_sdma], 3, "word 62 (single-word DMA)", info.sdma_modes, info.sdma_active);
  family(words[w_mdma], 3, "word 63 (multiword DMA)", info.mdma_modes, info.mdma_active);
  if (bit(words[w_field_valid], 2)) {
    family(words[w_udma], 7, "word 88 (Ultra DMA)", info.udma_modes, info.udma_active);
  } else if (words[w_udma] != 0) {
    info.warnings.push_back("word 88 ignored: word 53 bit 2 says it is not valid");
  }
}

void decode_transport(const Words& words, IdentifyInfo& info) {
  info.is_sata = reported(words[w_sata_cap]) || (words[w_transport] >> 12) == 1;
  if (reported(words[w_sata_cap]) && bit(words[w_sata_cap], 8))
    info.queue_depth = (words[w_queue_depth] & 0x1F) + 1;
  const std::uint16_t rotation = words[w_rotation];
  if (rotation == 1 || (rotation >= 0x0401 && rotation <= 0xFFFE)) info.rotation_rate = rotation;
  const std::uint16_t reset = words[w_hw_reset];
  // libata's ata_drive_40wire test: bits 15:13 = 011 means CBLID- above V_IH (80-wire).
  if (!info.is_sata && valid_word(reset)) info.cable_80wire = bit(reset, 13);
}

void decode_versions(const Words& words, IdentifyInfo& info) {
  if (reported(words[w_major])) {
    for (int n = 1; n <= 14; ++n) {
      if (bit(words[w_major], n)) info.ata_major_versions.push_back(n);
    }
  }
  if (reported(words[w_minor])) info.ata_minor_version = words[w_minor];
}

Feature feature(bool reported_word, std::uint16_t supported, std::uint16_t enabled, int n) {
  Feature f;
  f.supported = reported_word && bit(supported, n);
  f.enabled = f.supported && bit(enabled, n);
  return f;
}

void decode_features(const Words& words, IdentifyInfo& info) {
  const bool set1 = reported(words[w_cmd_set_1]);
  const bool set2 = valid_word(words[w_cmd_set_2]);
  info.write_cache = feature(set1, words[w_cmd_set_1], words[w_cmd_enabled_1], 5);
  info.look_ahead = feature(set1, words[w_cmd_set_1], words[w_cmd_enabled_1], 6);
  info.apm = feature(set2, words[w_cmd_set_2], words[w_cmd_enabled_2], 3);
  info.aam = feature(set2, words[w_cmd_set_2], words[w_cmd_enabled_2], 9);
  info.lba48 = feature(set2, words[w_cmd_set_2], words[w_cmd_enabled_2], 10);
  // ATA8-ACS 7.16.7.43 / 7.16.7.46: word 91 bits 7:0 the APM level (00h and FFh reserved),
  // word 94 bits 7:0 the current and 15:8 the recommended AAM level.
  if (const int level = words[w_apm_level] & 0xFF; info.apm.enabled == true && level >= 1 && level <= 254)
    info.apm_level = level;
  if (info.aam.enabled == true) info.aam_level = words[w_aam_level] & 0xFF;
  if (info.aam.supported) info.aam_recommended = words[w_aam_level] >> 8;
}

// hdparm's get_lba_capacity (hdparm.c 9.58): words 57-58, then 60-61 if LBA, then
// 100-103 if word 83 is valid and word 86 bit 10 (48-bit enabled).
std::uint64_t lba_capacity(const Words& w) {
  std::uint64_t sectors = (std::uint64_t{w[58]} << 16) | w[57];
  if (bit(w[w_capabilities], 9)) {
    sectors = (std::uint64_t{w[61]} << 16) | w[60];
    if (valid_word(w[w_cmd_set_2]) && bit(w[w_cmd_enabled_2], 10)) {
      sectors = (std::uint64_t{w[103]} << 48) | (std::uint64_t{w[102]} << 32) |
                (std::uint64_t{w[101]} << 16) | w[100];
    }
  }
  return sectors;
}

void decode_checksum(const Words& words, IdentifyInfo& info) {
  info.checksum = identify_checksum(words);
  if (info.checksum == Checksum::invalid) {
    info.warnings.push_back("word 255: checksum incorrect (bytes sum to 0x" +
                            hex4(identify_byte_sum(words)) + ", not 0)");
  }
}

}  // namespace

std::uint8_t identify_byte_sum(const std::array<std::uint16_t, 256>& words) {
  unsigned sum = 0;
  for (const std::uint16_t w : words) sum += (w & 0xFFU) + (w >> 8);
  return static_cast<std::uint8_t>(sum & 0xFFU);
}

Checksum identify_checksum(const std::array<std::uint16_t, 256>& words) {
  if ((words[w_integrity] & 0xFFU) != 0xA5U) return Checksum::absent;
  return identify_byte_sum(words) == 0 ? Checksum::valid : Checksum::invalid;
}

IdentifyInfo decode_identify(const std::array<std::uint16_t, 256>& words, IdentifySource source) {
  IdentifyInfo info;
  info.source = source;
  info.words = words;
  info.model = ata_string(words, w_model, 20, "model (words 27-46)", info.warnings);
  info.serial = ata_string(words, w_serial, 10, "serial (words 10-19)", info.warnings);
  info.firmware = ata_string(words, w_firmware, 4, "firmware (words 23-26)", info.warnings);
  info.device_type = device_type_of(words);
  if ((words[w_general_config] & 0xC000U) == 0xC000U && info.device_type != DeviceType::cfa) {
    info.warnings.push_back("word 0: bits 15 and 14 both set (unknown device type); taken as ata");
  }
  decode_multiple(words, info);
  decode_capabilities(words, info);
  decode_pio(words, info);
  decode_dma_modes(words, info);
  decode_transport(words, info);
  decode_versions(words, info);
  decode_features(words, info);
  info.lba_sectors = lba_capacity(words);
  decode_checksum(words, info);
  return info;
}

Result<IdentifyInfo> decode_identify_block(std::span<const std::byte> block, IdentifySource source) {
  if (block.size() != 512) {
    return Error{std::make_error_code(std::errc::invalid_argument),
                 "decode identify block of " + std::to_string(block.size()) + " bytes (need 512)",
                 ""};
  }
  Words words{};
  for (std::size_t i = 0; i < words.size(); ++i) {
    words[i] = static_cast<std::uint16_t>(std::to_integer<unsigned>(block[2 * i]) |
                                          (std::to_integer<unsigned>(block[2 * i + 1]) << 8));
  }
  return decode_identify(words, source);
}

std::string_view to_string(DeviceType type) {
  switch (type) {
    case DeviceType::ata: return "ata";
    case DeviceType::atapi: return "atapi";
    case DeviceType::cfa: return "cfa";
  }
  DT_ASSERT(false);
  return {};
}

std::string_view to_string(Checksum checksum) {
  switch (checksum) {
    case Checksum::valid: return "valid";
    case Checksum::invalid: return "invalid";
    case Checksum::absent: return "absent";
    case Checksum::unknown: return "unknown";
  }
  DT_ASSERT(false);
  return {};
}

std::string_view to_string(IdentifySource source) {
  switch (source) {
    case IdentifySource::raw: return "raw";
    case IdentifySource::hdparm_i: return "hdparm-i";
    case IdentifySource::hdparm_I: return "hdparm-I";
    case IdentifySource::live: return "live";
  }
  DT_ASSERT(false);
  return {};
}

}  // namespace disktune::probe
