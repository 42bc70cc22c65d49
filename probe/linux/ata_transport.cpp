// SPDX-License-Identifier: GPL-2.0-or-later
// Names of the HDIO knobs and the pure parts of finding libata's xfer_mode attribute.
#include "probe/linux/ata_transport.hpp"

#include "probe/settings.hpp"

#include <charconv>
#include <utility>
#include <vector>

namespace disktune::probe {
namespace {

std::optional<int> parse_int(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const auto end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

}  // namespace

std::string_view hdio_get_name(HdioKnob knob) {
  switch (knob) {
    case HdioKnob::multcount: return "HDIO_GET_MULTCOUNT";
    case HdioKnob::io_support: return "HDIO_GET_32BIT";
    case HdioKnob::unmaskirq: return "HDIO_GET_UNMASKINTR";
    case HdioKnob::using_dma: return "HDIO_GET_DMA";
  }
  return "HDIO_GET_?";
}

std::string_view hdio_set_name(HdioKnob knob) {
  switch (knob) {
    case HdioKnob::multcount: return "HDIO_SET_MULTCOUNT";
    case HdioKnob::io_support: return "HDIO_SET_32BIT";
    case HdioKnob::unmaskirq: return "HDIO_SET_UNMASKINTR";
    case HdioKnob::using_dma: return "HDIO_SET_DMA";
  }
  return "HDIO_SET_?";
}

std::optional<std::int64_t> parse_libata_xfer_mode(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  static constexpr std::array<std::pair<std::string_view, XferFamily>, 4> kPrefixes{{
      {"XFER_UDMA_", XferFamily::udma},
      {"XFER_MW_DMA_", XferFamily::mdma},
      {"XFER_SW_DMA_", XferFamily::sdma},
      {"XFER_PIO_", XferFamily::pio},
  }};
  for (const auto& [prefix, family] : kPrefixes) {
    if (!text.starts_with(prefix)) continue;
    const auto mode = parse_int(text.substr(prefix.size()));
    if (!mode || *mode < 0 || *mode > 7) return std::nullopt;
    return xfermode_code(family, *mode);
  }
  return std::nullopt;
}

std::optional<std::string> libata_device_name(std::string_view scsi_device_path) {
  const auto parts = split(scsi_device_path, '/');
  std::optional<int> port;
  for (const auto part : parts)
    if (part.starts_with("ata"))
      if (const auto n = parse_int(part.substr(3))) port = n;
  if (!port || parts.empty()) return std::nullopt;
  const auto hctl = split(parts.back(), ':');
  if (hctl.size() != 4) return std::nullopt;
  const auto channel = parse_int(hctl[1]);
  const auto id = parse_int(hctl[2]);
  if (!channel || !id) return std::nullopt;
  const std::string prefix = "dev" + std::to_string(*port) + ".";
  return *channel == 0 ? prefix + std::to_string(*id) : prefix + std::to_string(*channel) + ".0";
}

}  // namespace disktune::probe
