// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxAtaKnobs and HDIO_GET_IDENTITY: read ioctls only, plus HDIO_SET_32BIT.
#include "probe/linux_ata.hpp"

#include "probe/assert.hpp"

#include <linux/hdreg.h>
#include <sys/ioctl.h>

#include <algorithm>

namespace disktune::probe {
namespace {

struct KnobIoctl {
  SettingId id;
  unsigned long get;
  std::string_view get_name;
};

constexpr std::array<KnobIoctl, 4> kKnobs{{
    {SettingId::multcount, HDIO_GET_MULTCOUNT, "HDIO_GET_MULTCOUNT"},
    {SettingId::io_support, HDIO_GET_32BIT, "HDIO_GET_32BIT"},
    {SettingId::unmaskirq, HDIO_GET_UNMASKINTR, "HDIO_GET_UNMASKINTR"},
    {SettingId::using_dma, HDIO_GET_DMA, "HDIO_GET_DMA"},
}};

const KnobIoctl& knob(SettingId id) {
  const auto* found =
      std::find_if(kKnobs.begin(), kKnobs.end(), [id](const KnobIoctl& k) { return k.id == id; });
  DT_ASSERT(found != kKnobs.end());
  return *found;
}

// The word ranges of the identify strings: serial, firmware, model (ATA-REFERENCE §1.2).
constexpr std::array<std::pair<std::size_t, std::size_t>, 3> kStringWords{
    {{10, 19}, {23, 26}, {27, 46}}};

std::optional<std::int64_t> active_dma_code(const IdentifyInfo& identify) {
  if (identify.udma_active) return xfermode_code(XferFamily::udma, *identify.udma_active);
  if (identify.mdma_active) return xfermode_code(XferFamily::mdma, *identify.mdma_active);
  if (identify.sdma_active) return xfermode_code(XferFamily::sdma, *identify.sdma_active);
  return std::nullopt;
}

Error xfermode_unreadable(const IdentifyInfo* identify, const std::string& path) {
  return Error{std::make_error_code(std::errc::not_supported),
               identify ? "SET FEATURES 0x03 not attempted: no ioctl reads the current PIO "
                          "mode and identify data shows no active DMA mode"
                        : "SET FEATURES 0x03 not attempted: no identify data",
               path};
}

}  // namespace

void hdio_identity_to_ata_order(std::span<std::byte, 512> block) {
  for (const auto& [first, last] : kStringWords)
    for (std::size_t word = first; word <= last; ++word)
      std::swap(block[2 * word], block[2 * word + 1]);
}

Result<std::array<std::byte, 512>> read_hdio_identity(int fd, const std::string& path) {
  std::array<std::byte, 512> block{};
  if (::ioctl(fd, HDIO_GET_IDENTITY, block.data()) != 0) {
    const int error = errno;
    if (error == ENOTTY || error == EINVAL)
      return Error{std::make_error_code(std::errc::not_supported), "ioctl(HDIO_GET_IDENTITY)",
                   path};
    return errno_error(error, "ioctl(HDIO_GET_IDENTITY)", path);
  }
  hdio_identity_to_ata_order(block);
  return block;
}

bool LinuxAtaKnobs::handles(SettingId id) {
  return id == SettingId::xfermode ||
         std::any_of(kKnobs.begin(), kKnobs.end(), [id](const KnobIoctl& k) { return k.id == id; });
}

Capability LinuxAtaKnobs::capability(SettingId id, const IdentifyInfo* identify) const {
  Capability capability{id, Support::unsupported, {}, {}};
  auto current = read(id, identify);
  if (!current) {
    capability.reason = current.error().message();
    return capability;
  }
  if (id == SettingId::io_support) {
    capability.support = Support::supported;
    return capability;
  }
  capability.support = Support::read_only;
  capability.reason = id == SettingId::xfermode
                          ? "SET FEATURES 0x03 not implemented yet (libata refuses it; "
                            "ATA-REFERENCE 3.3)"
                          : "changing " + std::string(setting_name(id)) + " is not implemented yet";
  return capability;
}

Result<SettingValue> LinuxAtaKnobs::read(SettingId id, const IdentifyInfo* identify) const {
  DT_ASSERT(handles(id));
  if (id == SettingId::xfermode) {
    const auto code = identify ? active_dma_code(*identify) : std::nullopt;
    if (!code) return xfermode_unreadable(identify, dev_path_);
    return SettingValue(*code);
  }
  const auto& ioctl_info = knob(id);
  long value = 0;
  if (::ioctl(fd_, ioctl_info.get, &value) != 0)
    return errno_error(errno, "ioctl(" + std::string(ioctl_info.get_name) + ")", dev_path_);
  return SettingValue(static_cast<std::int64_t>(value));
}

Result<void> LinuxAtaKnobs::apply(SettingId id, const SettingValue& value) {
  DT_ASSERT(handles(id) && value.is_number());
  if (id != SettingId::io_support)
    return Error{std::make_error_code(std::errc::operation_not_supported),
                 "apply " + std::string(setting_name(id)) + ": not implemented yet", dev_path_};
  const auto number = value.number();
  if (::ioctl(fd_, HDIO_SET_32BIT, static_cast<unsigned long>(number)) != 0)
    return errno_error(errno, "ioctl(HDIO_SET_32BIT " + std::to_string(number) + ")", dev_path_);
  return {};
}

}  // namespace disktune::probe
