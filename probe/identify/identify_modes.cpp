// SPDX-License-Identifier: GPL-2.0-or-later
// Mode-mask, string and hex helpers shared by the identify decoder and the text parsers.
#include "probe/identify/identify_modes.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace disktune::probe {

std::vector<int> mask_to_modes(unsigned mask, int count) {
  std::vector<int> modes;
  for (int n = 0; n < count; ++n) {
    if (((mask >> n) & 1U) != 0U) modes.push_back(n);
  }
  return modes;
}

std::vector<int> normalise_pio(std::vector<int> modes) {
  const bool advanced = std::find_if(modes.begin(), modes.end(),
                                     [](int m) { return m == 3 || m == 4; }) != modes.end();
  if (advanced) modes.insert(modes.end(), {0, 1, 2});
  std::sort(modes.begin(), modes.end());
  modes.erase(std::unique(modes.begin(), modes.end()), modes.end());
  return modes;
}

std::optional<int> one_hot_mode(unsigned selected, std::string_view what,
                                std::vector<std::string>& warnings) {
  if (selected == 0U) return std::nullopt;
  if (!std::has_single_bit(selected)) {
    warnings.push_back(std::string(what) + ": several modes marked active; active mode unknown");
    return std::nullopt;
  }
  return std::countr_zero(selected);
}

void check_active_supported(const std::optional<int>& active, const std::vector<int>& modes,
                            std::string_view what, std::vector<std::string>& warnings) {
  if (active && std::find(modes.begin(), modes.end(), *active) == modes.end()) {
    warnings.push_back(std::string(what) + ": active mode " + std::to_string(*active) +
                       " is not among the supported modes");
  }
}

std::string trim_blanks(std::string_view text) {
  constexpr std::string_view blanks{" \t\r\n\0", 5};
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(blanks);
  return std::string(text.substr(first, last - first + 1));
}

std::string printable_text(std::string_view text, std::string_view what,
                           std::vector<std::string>& warnings) {
  std::string out = trim_blanks(text);
  bool replaced = false;
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F) continue;
    c = '?';
    replaced = true;
  }
  if (replaced) warnings.push_back(std::string(what) + " contains non-printable bytes (shown as '?')");
  return out;
}

std::string hex4(unsigned value) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "%04x", value & 0xFFFFU);
  return buffer;
}

}  // namespace disktune::probe
