// SPDX-License-Identifier: GPL-2.0-or-later
// hdparm mode lists ("pio0 pio1 *udma2", old "mword0", "mode3") parsed into IdentifyInfo modes.
#include "probe/identify/identify_modes.hpp"
#include "probe/identify/identify_text_internal.hpp"

#include <algorithm>
#include <cctype>

namespace disktune::probe::text {
namespace {

struct Family {
  std::string_view prefix;
  int max_mode;
  std::vector<int> ModeSets::*modes;
  std::vector<int> ModeSets::*active;
};

// hdparm 3.x wrote "sword"/"mword" for single/multiword DMA; "modeN" depends on the list.
constexpr Family families[] = {
    {"pio", 7, &ModeSets::pio, &ModeSets::pio_active},
    {"sdma", 7, &ModeSets::sdma, &ModeSets::sdma_active},
    {"sword", 7, &ModeSets::sdma, &ModeSets::sdma_active},
    {"mdma", 7, &ModeSets::mdma, &ModeSets::mdma_active},
    {"mword", 7, &ModeSets::mdma, &ModeSets::mdma_active},
    {"udma", 7, &ModeSets::udma, &ModeSets::udma_active},
};

bool add_token(std::string_view token, BareFamily bare, ModeSets& sets) {
  const bool active = !token.empty() && token.front() == '*';
  if (active) token.remove_prefix(1);
  std::optional<Family> family;
  for (const Family& f : families) {
    if (token.starts_with(f.prefix)) family = f;
  }
  if (!family && token.starts_with("mode") && bare != BareFamily::none) {
    family = bare == BareFamily::pio ? families[0] : families[5];
    token.remove_prefix(4);
  } else if (family) {
    token.remove_prefix(family->prefix.size());
  }
  if (!family) return false;
  const auto number = parse_number(token);
  if (!number || *number > static_cast<std::uint64_t>(family->max_mode)) return false;
  (sets.*(family->modes)).push_back(static_cast<int>(*number));
  if (active) (sets.*(family->active)).push_back(static_cast<int>(*number));
  return true;
}

std::optional<int> single_active(std::vector<int> marks, std::string_view what,
                                 std::vector<std::string>& warnings) {
  std::sort(marks.begin(), marks.end());
  marks.erase(std::unique(marks.begin(), marks.end()), marks.end());
  if (marks.empty()) return std::nullopt;
  if (marks.size() > 1) {
    warnings.push_back(std::string(what) + ": several modes marked active; active mode unknown");
    return std::nullopt;
  }
  return marks.front();
}

std::vector<int> sorted_unique(std::vector<int> modes) {
  std::sort(modes.begin(), modes.end());
  modes.erase(std::unique(modes.begin(), modes.end()), modes.end());
  return modes;
}

}  // namespace

void parse_mode_tokens(std::string_view list, BareFamily bare, int line, ModeSets& sets,
                       std::vector<std::string>& warnings) {
  std::size_t at = 0;
  while (at < list.size()) {
    at = list.find_first_not_of(" \t", at);
    if (at == std::string_view::npos) break;
    const std::size_t end = std::min(list.find_first_of(" \t", at), list.size());
    const std::string_view token = list.substr(at, end - at);
    at = end;
    if (token == "*") {
      sets.stray_star = true;
      warnings.push_back(at_line(line) + "a '*' marks no mode (reserved bit selected?)");
    } else if (token == "(?)") {
      warnings.push_back(at_line(line) + "hdparm flagged the active DMA mode as doubtful (?)");
    } else if (!add_token(token, bare, sets)) {
      warnings.push_back(at_line(line) + "unknown mode '" + std::string(token) + "' ignored");
    }
  }
}

void apply_modes(ModeSets sets, IdentifyInfo& info) {
  info.pio_modes = normalise_pio(sets.pio);
  info.sdma_modes = sorted_unique(sets.sdma);
  info.mdma_modes = sorted_unique(sets.mdma);
  info.udma_modes = sorted_unique(sets.udma);
  info.sdma_active = single_active(sets.sdma_active, "single-word DMA", info.warnings);
  info.mdma_active = single_active(sets.mdma_active, "multiword DMA", info.warnings);
  info.udma_active = single_active(sets.udma_active, "Ultra DMA", info.warnings);
  const int families_marked = (info.sdma_active ? 1 : 0) + (info.mdma_active ? 1 : 0) +
                              (info.udma_active ? 1 : 0);
  if (families_marked > 1) info.warnings.push_back("DMA modes of several families marked active");
  for (const int mode : info.pio_modes) {
    if (mode > 4) {
      info.warnings.push_back("PIO mode " + std::to_string(mode) + " listed (ATA defines 0-4)");
    }
  }
  for (const int mode : info.mdma_modes) {
    if (mode > 2) {
      info.warnings.push_back("multiword DMA mode " + std::to_string(mode) +
                              " listed (ATA defines 0-2)");
    }
  }
}

}  // namespace disktune::probe::text
