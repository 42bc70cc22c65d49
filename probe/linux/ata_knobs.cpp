// SPDX-License-Identifier: GPL-2.0-or-later
// AtaKnobs: identify, read and apply through an AtaTransport (discovery is in ata_discovery.cpp).
#include "probe/linux/ata_knobs.hpp"

#include "probe/linux/ata_knobs_internal.hpp"
#include "probe/core/assert.hpp"
#include "probe/power_levels.hpp"

#include <algorithm>

namespace disktune::probe {
namespace {

HdioKnob hdio_knob(SettingId id) {
  switch (id) {
    case SettingId::multcount: return HdioKnob::multcount;
    case SettingId::io_support: return HdioKnob::io_support;
    case SettingId::unmaskirq: return HdioKnob::unmaskirq;
    case SettingId::using_dma: return HdioKnob::using_dma;
    default: DT_ASSERT(false && "not an HDIO knob");
  }
  return HdioKnob::multcount;
}

Error xfermode_unreadable(bool have_identify, const std::string& path) {
  return Error{std::make_error_code(std::errc::not_supported),
               have_identify ? "SET FEATURES 0x03 not attempted: no ioctl reads the current PIO "
                               "mode and identify data shows no active DMA mode"
                             : "SET FEATURES 0x03 not attempted: no identify data",
               path};
}

}  // namespace

bool sg_io_unavailable(const Error& error) {
  if (error.code.category() != std::generic_category()) return false;
  const int value = error.code.value();
  return value == ENOTTY || value == EINVAL || value == ENODEV || value == EBADE;
}

bool opcode_unknown(const Error& error) {
  return error.code.category() == sense_category() && error.code.value() == (0x05 << 16 | 0x20 << 8);
}

std::optional<std::int64_t> active_dma_code(const IdentifyInfo& identify) {
  if (identify.udma_active) return xfermode_code(XferFamily::udma, *identify.udma_active);
  if (identify.mdma_active) return xfermode_code(XferFamily::mdma, *identify.mdma_active);
  if (identify.sdma_active) return xfermode_code(XferFamily::sdma, *identify.sdma_active);
  return std::nullopt;
}

bool AtaKnobs::handles(SettingId id) {
  return id == SettingId::multcount || id == SettingId::io_support || id == SettingId::unmaskirq ||
         id == SettingId::using_dma || id == SettingId::xfermode || is_power_level(id);
}

namespace {

// A bridge that passes no ATA command may still answer GOOD with nothing (all zero) or
// noise: that is no identify data, as for an hdparm -I capture of it (identify_hdparm_I_text).
Result<void> check_live_block(const std::array<std::byte, 512>& block, const std::string& op,
                              const std::string& path) {
  if (std::all_of(block.begin(), block.end(), [](std::byte b) { return b == std::byte{0}; }))
    return Error{std::make_error_code(std::errc::not_supported), op + " returned an all-zero block", path};
  // Model words 27-46, first character of each word in the high byte.
  for (std::size_t i = 54; i < 94; ++i)
    if (const auto c = static_cast<unsigned>(block[i]); c != 0 && (c < 0x20 || c > 0x7e))
      return Error{std::make_error_code(std::errc::not_supported),
                   op + " returned garbage (the model holds non-ASCII bytes)", path};
  return {};
}

}  // namespace

Result<std::array<std::byte, 512>> AtaKnobs::sg_identify(const AtaCommand& command) {
  std::array<std::byte, 512> block{};
  int cdb_bytes = 16;
  auto sent = transport_.sg_ata(command, cdb_bytes, block);
  if (!sent && opcode_unknown(sent.error()) && command.command != kAtaIdentifyPacketDevice)
    sent = transport_.sg_ata(command, cdb_bytes = 12, block);
  if (!sent) return sent.error();
  const std::string op = "SG_IO ATA_" + std::to_string(cdb_bytes) + " " + command.name;
  if (auto checked = check_live_block(block, op, transport_.path()); !checked) return checked.error();
  return block;
}

Result<std::array<std::byte, 512>> AtaKnobs::sg_identify_any() {
  auto device = sg_identify(identify_device_command());
  if (device || sg_io_unavailable(device.error())) return device;
  // An ATAPI device aborts IDENTIFY DEVICE; it answers IDENTIFY PACKET DEVICE.
  auto packet = sg_identify(identify_packet_command());
  if (packet) return packet;
  return device.error();
}

Result<IdentifyInfo> AtaKnobs::identify() {
  auto cached = transport_.hdio_identity();
  if (cached) return decode_identify_block(*cached, IdentifySource::live);
  auto live = sg_identify_any();
  if (live) return decode_identify_block(*live, IdentifySource::live);
  const std::string notes = cached.error().message() + "; " + live.error().message();
  if (cached.error().is_unsupported() && live.error().is_unsupported())
    return Error{std::make_error_code(std::errc::not_supported), "no identify data (" + notes + ")", ""};
  return Error{live.error().code, "no identify data (" + notes + ")", ""};
}

Result<IdentifyInfo> AtaKnobs::drive_identify() {
  auto live = sg_identify_any();
  if (live) return decode_identify_block(*live, IdentifySource::live);
  if (!sg_io_unavailable(live.error())) return live.error();
  auto cached = transport_.hdio_identity();
  if (!cached) return cached.error();
  return decode_identify_block(*cached, IdentifySource::live);
}

Result<SettingValue> AtaKnobs::read_multcount() {
  auto hdio = transport_.hdio_get(HdioKnob::multcount);
  if (hdio) return SettingValue(*hdio);
  if (!hdio.error().is_unsupported()) return hdio.error();
  // libata: no ioctl; IDENTIFY word 59 (bit 8 clear = no multiple mode set, as the kernel reads it).
  auto identify = drive_identify();
  if (!identify) return hdio.error();
  if (identify->max_multsect == 0)
    return Error{std::make_error_code(std::errc::not_supported),
                 hdio.error().message() + "; READ/WRITE MULTIPLE not supported (IDENTIFY word 47 = 0)", ""};
  return SettingValue(std::int64_t{identify->multsect.value_or(0)});
}

Result<SettingValue> AtaKnobs::read_xfermode() {
  if (auto text = transport_.libata_xfer_mode())
    if (const auto code = parse_libata_xfer_mode(*text)) return SettingValue(*code);
  auto identify = drive_identify();
  if (!identify) return xfermode_unreadable(false, transport_.path());
  const auto code = active_dma_code(*identify);
  if (!code) return xfermode_unreadable(true, transport_.path());
  return SettingValue(*code);
}

Result<SettingValue> AtaKnobs::read_power_level(SettingId id) {
  auto identify = drive_identify();
  if (!identify) return identify.error();
  if (const auto missing = power_level_missing(*identify, id))
    return Error{std::make_error_code(std::errc::not_supported), *missing, transport_.path()};
  return SettingValue(*power_level_of(*identify, id));
}

Result<SettingValue> AtaKnobs::read(SettingId id) {
  DT_ASSERT(handles(id));
  if (is_power_level(id)) return read_power_level(id);
  if (id == SettingId::multcount) return read_multcount();
  if (id == SettingId::xfermode) return read_xfermode();
  auto value = transport_.hdio_get(hdio_knob(id));
  if (!value) return value.error();
  return SettingValue(*value);
}

Result<void> AtaKnobs::ata_non_data(const AtaCommand& command) {
  auto sent = transport_.sg_ata(command, 16, {});
  if (!sent && opcode_unknown(sent.error())) sent = transport_.sg_ata(command, 12, {});
  if (sent) return {};
  if (!sg_io_unavailable(sent.error())) return sent.error();
  // No SG_IO (legacy IDE): hdparm's fallback, HDIO_DRIVE_CMD.
  auto legacy = transport_.drive_cmd(command);
  if (legacy) return {};
  return Error{legacy.error().code, sent.error().message() + "; " + legacy.error().op, legacy.error().path};
}

Result<void> AtaKnobs::apply_multcount(std::int64_t sectors) {
  DT_ASSERT(sectors >= 0 && sectors <= 255);
  auto hdio = transport_.hdio_get(HdioKnob::multcount);
  if (hdio || !hdio.error().is_unsupported()) return transport_.hdio_set(HdioKnob::multcount, sectors);
  return ata_non_data(set_multiple_command(static_cast<std::uint8_t>(sectors)));
}

Result<void> AtaKnobs::apply(SettingId id, const SettingValue& value) {
  DT_ASSERT(handles(id) && value.is_number());
  const auto number = value.number();
  if (id == SettingId::multcount) return apply_multcount(number);
  if (is_power_level(id)) {
    DT_ASSERT(number >= 0 && number <= 255);
    const auto level = static_cast<std::uint8_t>(number);
    return ata_non_data(id == SettingId::apm ? set_apm_command(level) : set_aam_command(level));
  }
  if (id == SettingId::xfermode) {
    DT_ASSERT(number >= 0 && number <= 255);
    return ata_non_data(set_xfermode_command(static_cast<std::uint8_t>(number)));
  }
  return transport_.hdio_set(hdio_knob(id), number);
}

}  // namespace disktune::probe
