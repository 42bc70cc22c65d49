// SPDX-License-Identifier: GPL-2.0-or-later
// identify_summary: a one-line, JSON-free description of an IdentifyInfo.
#include "probe/identify/identify.hpp"

namespace disktune::probe {
namespace {

// "0-4", "0,3,4" or "none".
std::string mode_list(const std::vector<int>& modes) {
  if (modes.empty()) return "none";
  bool contiguous = true;
  for (std::size_t i = 1; i < modes.size(); ++i) contiguous = contiguous && modes[i] == modes[i - 1] + 1;
  if (contiguous && modes.size() > 1) {
    return std::to_string(modes.front()) + "-" + std::to_string(modes.back());
  }
  std::string text;
  for (const int m : modes) text += (text.empty() ? "" : ",") + std::to_string(m);
  return text;
}

std::string active(const std::optional<int>& mode, std::string_view family) {
  return mode ? " (active " + std::string(family) + std::to_string(*mode) + ")" : "";
}

}  // namespace

std::string identify_summary(const IdentifyInfo& info) {
  std::string text = (info.model.empty() ? std::string("(no model)") : info.model) + " fw " +
                     (info.firmware.empty() ? std::string("?") : info.firmware) + " (" +
                     std::string(to_string(info.device_type)) + ", " +
                     std::string(to_string(info.source)) + "): MaxMultSect " +
                     std::to_string(info.max_multsect) + ", MultSect " +
                     (info.multsect ? std::to_string(*info.multsect) : std::string("?")) +
                     ", PIO " + mode_list(info.pio_modes) + ", MDMA " + mode_list(info.mdma_modes) +
                     active(info.mdma_active, "mdma") + ", UDMA " + mode_list(info.udma_modes) +
                     active(info.udma_active, "udma") + ", LBA " +
                     std::to_string(info.lba_sectors) + " sectors";
  if (!info.warnings.empty()) {
    text += ", " + std::to_string(info.warnings.size()) +
            (info.warnings.size() == 1 ? " warning" : " warnings");
  }
  return text;
}

std::ostream& operator<<(std::ostream& out, const IdentifyInfo& info) {
  return out << identify_summary(info);
}

}  // namespace disktune::probe
