// SPDX-License-Identifier: GPL-2.0-or-later
// AtaKnobs::capability: what this driver accepts, learned by writes that leave every value as it was.
#include "probe/linux/ata_knobs.hpp"

#include "probe/linux/ata_knobs_internal.hpp"

#include <algorithm>

namespace disktune::probe {
namespace {

Capability refused(SettingId id, const Error& error) {
  return Capability{id, error.is_unsupported() ? Support::unsupported : Support::read_only, {}, error.message()};
}

}  // namespace

Capability AtaKnobs::capability(SettingId id) {
  if (const auto it = discovered_.find(id); it != discovered_.end()) return it->second;
  return discovered_[id] = discover(id);
}

Capability AtaKnobs::discover(SettingId id) {
  return id == SettingId::io_support ? discover_io_support() : discover_by_resending(id);
}

// libata answers HDIO_GET_DMA with ENOTTY but the refusal the user needs to see is the
// SET's, so using_dma takes its current value from the active mode in identify data.
Result<SettingValue> AtaKnobs::current_for_probe(SettingId id) {
  auto current = read(id);
  if (current || id != SettingId::using_dma) return current;
  auto identify = drive_identify();
  if (!identify) return current;
  return SettingValue(std::int64_t{active_dma_code(*identify) ? 1 : 0});
}

Capability AtaKnobs::discover_by_resending(SettingId id) {
  // Where HDIO_GET_DMA answers (legacy IDE), HDIO_SET_DMA 1 is not harmless even with DMA
  // already on: the driver re-runs its mode selection and may pick another transfer mode.
  if (id == SettingId::using_dma && read(id)) return Capability{id, Support::supported, {}, ""};
  auto current = current_for_probe(id);
  if (!current) return Capability{id, Support::unsupported, {}, current.error().message()};
  if (auto resent = apply(id, *current); !resent) return refused(id, resent.error());
  auto back = read(id);
  if (!back) return Capability{id, Support::unsupported, {}, back.error().message()};
  if (*back != *current)
    return Capability{id, Support::read_only, {},
                      "re-sending " + format_value(id, *current) + " made it read back " + format_value(id, *back)};
  return Capability{id, Support::supported, {}, ""};
}

// Each of 0/1/3 is set and read back, then the original is set and read back: libata takes
// only the current value unless the port can change 32-bit PIO (ATA_PFLAG_PIO32CHANGE), and
// there any non-zero value reads back as 1.
Capability AtaKnobs::discover_io_support() {
  constexpr SettingId id = SettingId::io_support;
  auto current = transport_.hdio_get(HdioKnob::io_support);
  if (!current) return Capability{id, Support::unsupported, {}, current.error().message()};
  std::vector<SettingValue> accepted{SettingValue(*current)};
  std::string refusal;
  for (const std::int64_t value : {0, 1, 3}) {
    if (value == *current) continue;
    auto set = transport_.hdio_set(HdioKnob::io_support, value);
    if (!set) {
      if (refusal.empty()) refusal = set.error().message();
      continue;
    }
    auto back = transport_.hdio_get(HdioKnob::io_support);
    auto restored = transport_.hdio_set(HdioKnob::io_support, *current);
    auto after = transport_.hdio_get(HdioKnob::io_support);
    if (!restored || !after || *after != *current)
      return Capability{id, Support::unsupported, {},
                        "could not restore io_support " + std::to_string(*current) + " after trying " +
                            std::to_string(value) + (restored ? "" : ": " + restored.error().message())};
    if (back && *back == value)
      accepted.emplace_back(value);
    else if (refusal.empty())
      refusal = "ioctl(HDIO_SET_32BIT " + std::to_string(value) + ") on " + transport_.path() +
                ": accepted but reads back " + (back ? std::to_string(*back) : back.error().message());
  }
  std::sort(accepted.begin(), accepted.end());
  if (accepted.size() == 1)
    return Capability{id, Support::read_only, {},
                      refusal + " (only the current value " + std::to_string(*current) + " is accepted)"};
  return Capability{id, Support::supported, std::move(accepted), ""};
}

}  // namespace disktune::probe
