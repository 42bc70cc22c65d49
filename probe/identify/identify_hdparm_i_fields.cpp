// SPDX-License-Identifier: GPL-2.0-or-later
// Field-by-field reading of one drive's `hdparm -i` lines (docs/ata-reference.md §1.4, §2.1).
#include "probe/identify/identify_hdparm_i_fields.hpp"

#include "probe/identify/identify_modes.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace disktune::probe::text {
namespace {

// hdparm.c cfg_str[]: the names of word 0 bits 1-15 in "Config={ ... }".
constexpr std::array<std::string_view, 16> config_names = {
    "",         "HardSect", "SoftSect",  "NotMFM",        "HdSw>15uSec", "SpinMotCtl",
    "Fixed",    "Removeable", "DTR<=5Mbs", "DTR>5Mbs",    "DTR>10Mbs",   "RotSpdTol>.5%",
    "dStbOff",  "TrkOff",   "FmtGapReq", "nonMagnetic"};

// Fields hdparm -i prints that disktune does not need.
constexpr std::array<std::string_view, 11> ignored_keys = {
    "RawCHS", "TrkSize", "SectSize", "ECCbytes", "BuffType", "BuffSize",
    "CurCHS", "CurSects", "tPIO",    "DblWordIO", "OldDMA"};

struct Label {
  std::string_view text;
  BareFamily bare;
};
constexpr std::array<Label, 3> mode_labels = {
    Label{"PIO modes:", BareFamily::pio}, Label{"UDMA modes:", BareFamily::udma},
    Label{"DMA modes:", BareFamily::none}};

// Position of a mode-list label in `line` ("DMA modes:" must not be the tail of "UDMA modes:").
std::size_t find_label(std::string_view line, std::string_view label) {
  for (std::size_t at = line.find(label); at != std::string_view::npos;
       at = line.find(label, at + 1)) {
    if (label != "DMA modes:" || at == 0 || line[at - 1] != 'U') return at;
  }
  return std::string_view::npos;
}

std::vector<std::string_view> split_top_level(std::string_view fields) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= fields.size(); ++i) {
    if (i == fields.size() || (fields[i] == ',' && depth == 0)) {
      const std::string part = trim_blanks(fields.substr(start, i - start));
      if (!part.empty()) parts.push_back(fields.substr(start, i - start));
      start = i + 1;
    } else if (fields[i] == '{') {
      ++depth;
    } else if (fields[i] == '}') {
      depth = std::max(0, depth - 1);
    }
  }
  return parts;
}

bool version_token(std::string_view token, std::vector<int>& versions) {
  if (const auto dash = token.rfind('-'); dash != std::string_view::npos) {
    token.remove_prefix(dash + 1);
  }
  std::size_t start = 0;
  bool any = false;
  while (start <= token.size()) {
    const std::size_t end = std::min(token.find(',', start), token.size());
    const std::string_view piece = token.substr(start, end - start);
    start = end + 1;
    if (piece.empty()) continue;
    const auto n = parse_number(piece);
    if (!n || *n < 1 || *n > 14) return false;
    versions.push_back(static_cast<int>(*n));
    any = true;
  }
  return any;
}

std::vector<std::string_view> words_of(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t at = 0;
  while ((at = text.find_first_not_of(" \t", at)) != std::string_view::npos) {
    const std::size_t end = std::min(text.find_first_of(" \t", at), text.size());
    words.push_back(text.substr(at, end - at));
    at = end;
  }
  return words;
}

}  // namespace

bool IFieldParser::needs_continuation(std::string_view line) const {
  const auto open = line.rfind('{');
  return open != std::string_view::npos && line.find('}', open) == std::string_view::npos;
}

void IFieldParser::note_markup(int line) {
  if (markup_noted_) return;
  markup_noted_ = true;
  info_.warnings.push_back(at_line(line) + "markup (** or HTML tags) removed");
}

void IFieldParser::parse_line(const Line& line) {
  std::string text = trim_blanks(line.text);
  if (text.empty()) return;
  if (last_was_versions_ && text.starts_with("ATA") && parse_versions(text, line.number)) return;
  last_was_versions_ = false;
  if (text.starts_with("(maybe):")) text = trim_blanks(std::string_view(text).substr(8));
  if (text.find("signifies the current active mode") != std::string::npos ||
      text.starts_with("Kernel Drive Geometry")) {
    return;
  }
  if (text.starts_with("Drive conforms to:") || text.starts_with("Drive Supports")) {
    const std::string_view list = std::string_view(text).substr(text.rfind(':') + 1);
    if (!parse_versions(list, line.number)) {
      info_.warnings.push_back(at_line(line.number) + "ATA version list not understood");
    }
    last_was_versions_ = true;
    return;
  }
  std::string_view rest = text;
  std::vector<std::pair<std::size_t, Label>> found;
  for (const Label& label : mode_labels) {
    if (const auto at = find_label(rest, label.text); at != std::string_view::npos) {
      found.emplace_back(at, label);
    }
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < found.size(); ++i) {
    const std::size_t from = found[i].first + found[i].second.text.size();
    const std::size_t to = i + 1 < found.size() ? found[i + 1].first : rest.size();
    parse_mode_tokens(rest.substr(from, to - from), found[i].second.bare, line.number, modes_,
                      info_.warnings);
    if (found[i].second.bare != BareFamily::pio) dma_listed_ = true;
  }
  if (!found.empty()) rest = rest.substr(0, found.front().first);
  if (rest.find('=') == std::string_view::npos) {
    if (!trim_blanks(rest).empty()) {
      info_.warnings.push_back(at_line(line.number) + "unrecognised text ignored: '" +
                               trim_blanks(rest).substr(0, 60) + "'");
    }
    return;
  }
  parse_fields(rest, line.number);
}

void IFieldParser::parse_fields(std::string_view fields, int line) {
  if (const auto apm = fields.find("AdvancedPM="); apm != std::string_view::npos) {
    std::string_view value = fields.substr(apm + 11);
    const auto cache = value.find("WriteCache=");
    if (cache != std::string_view::npos) {
      parse_write_cache(trim_blanks(value.substr(cache + 11)), line);
      value = value.substr(0, cache);
    }
    parse_apm(trim_blanks(value), line);
    fields = fields.substr(0, apm);
  }
  if (const auto model = fields.find("Model="); model != std::string_view::npos) {
    const auto fw = fields.find(", FwRev=", model);
    const auto end = fw == std::string_view::npos ? fields.size() : fw;
    info_.model = printable_text(fields.substr(model + 6, end - model - 6), "Model", info_.warnings);
    fields = fw == std::string_view::npos ? std::string_view{} : fields.substr(fw + 2);
  }
  for (const std::string_view part : split_top_level(fields)) {
    const std::string field = trim_blanks(part);
    const auto eq = field.find('=');
    if (eq == std::string::npos) {
      info_.warnings.push_back(at_line(line) + "field without '=' ignored: '" + field + "'");
      continue;
    }
    parse_field(trim_blanks(std::string_view(field).substr(0, eq)),
                trim_blanks(std::string_view(field).substr(eq + 1)), line);
  }
}

void IFieldParser::parse_field(std::string_view key, std::string_view value, int line) {
  if (key == "FwRev") {
    info_.firmware = printable_text(value, "FwRev", info_.warnings);
  } else if (key == "SerialNo") {
    info_.serial = printable_text(value, "SerialNo", info_.warnings);
  } else if (key == "Config") {
    parse_config(value, line);
  } else if (key == "MaxMultSect") {
    info_.max_multsect = small_number(key, value, line).value_or(0);
    if (info_.max_multsect != 0 && !std::has_single_bit(static_cast<unsigned>(info_.max_multsect))) {
      info_.warnings.push_back(at_line(line) + "MaxMultSect " + std::to_string(info_.max_multsect) +
                               " is not a power of two");
    }
  } else if (key == "MultSect") {
    parse_multsect(value, line);
  } else if (key == "LBA") {
    info_.lba_supported = value == "yes";
  } else if (key == "LBAsects") {
    const auto n = parse_number(value);
    if (!n) info_.warnings.push_back(at_line(line) + "LBAsects '" + std::string(value) + "' is not a number");
    info_.lba_sectors = n.value_or(0);
  } else if (key == "IORDY") {
    info_.iordy_supported = value == "on/off" || value == "yes";
    info_.iordy_can_disable = value == "on/off";
  } else if (key == "OldPIO") {
    old_pio_ = small_number(key, value, line);
  } else if (key == "DMA") {
    dma_listed_ = dma_listed_ || value == "yes";
  } else if (key == "tDMA") {
    dma_listed_ = true;
  } else if (key == "WriteCache") {
    parse_write_cache(value, line);
  } else if (std::find(ignored_keys.begin(), ignored_keys.end(), key) == ignored_keys.end()) {
    info_.warnings.push_back(at_line(line) + "unknown field '" + std::string(key) + "' ignored");
  }
}

std::optional<int> IFieldParser::small_number(std::string_view key, std::string_view value, int line) {
  const auto n = parse_number(value);
  if (!n || *n > 0xFFFF) {
    info_.warnings.push_back(at_line(line) + std::string(key) + " '" + std::string(value) +
                             "' is not a number");
    return std::nullopt;
  }
  return static_cast<int>(*n);
}

// "16" = current setting; "off" = 0; "?N?" = word 59 bit 8 clear (setting not valid).
void IFieldParser::parse_multsect(std::string_view value, int line) {
  if (value == "off") {
    info_.multsect = 0;
  } else if (value.starts_with('?')) {
    info_.multsect.reset();
  } else {
    info_.multsect = small_number("MultSect", value, line);
  }
}

void IFieldParser::parse_config(std::string_view value, int line) {
  std::uint16_t word = 0;
  for (std::string_view name : words_of(value)) {
    if (name == "{" || name == "}") continue;
    if (name == "Removable") name = "Removeable";
    const auto it = std::find(config_names.begin() + 1, config_names.end(), name);
    if (it == config_names.end()) {
      info_.warnings.push_back(at_line(line) + "unknown Config name '" + std::string(name) + "'");
      continue;
    }
    word = static_cast<std::uint16_t>(word | (1U << (it - config_names.begin())));
  }
  config_ = word;
}

void IFieldParser::parse_apm(std::string_view value, int line) {
  info_.apm.supported = value.starts_with("yes");
  if (value == "no") {
    info_.apm.enabled = false;
  } else if (value.find("disabled") != std::string_view::npos) {
    info_.apm.enabled = false;
  } else if (const auto mode = value.find("mode="); mode != std::string_view::npos) {
    info_.apm.enabled = true;  // hdparm -i: "mode=0x%02X (%u)"
    const auto open = value.find('(', mode);
    const auto close = value.find(')', mode);
    const auto level = open < close && close != std::string_view::npos
                           ? parse_number(value.substr(open + 1, close - open - 1))
                           : std::nullopt;
    if (level && *level >= 1 && *level <= 254) info_.apm_level = static_cast<int>(*level);
  } else if (value.find("unknown setting") == std::string_view::npos) {
    info_.warnings.push_back(at_line(line) + "AdvancedPM value '" + std::string(value) +
                             "' not understood");
  }
}

void IFieldParser::parse_write_cache(std::string_view value, int line) {
  if (value == "enabled" || value == "disabled") {
    info_.write_cache.supported = true;
    info_.write_cache.enabled = value == "enabled";
  } else {
    info_.warnings.push_back(at_line(line) + "WriteCache value '" + std::string(value) +
                             "' not understood");
  }
}

bool IFieldParser::parse_versions(std::string_view list, int /*line*/) {
  std::vector<int> versions;
  const auto tokens = words_of(list);
  for (const std::string_view token : tokens) {
    if (!version_token(token, versions)) return false;
  }
  if (versions.empty()) return false;
  auto& all = info_.ata_major_versions;
  all.insert(all.end(), versions.begin(), versions.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return true;
}

void IFieldParser::finish() {
  if (old_pio_) {
    for (int mode = 0; mode <= std::min(*old_pio_, 2); ++mode) modes_.pio.push_back(mode);
  }
  const bool any_dma = !modes_.sdma.empty() || !modes_.mdma.empty() || !modes_.udma.empty();
  apply_modes(std::move(modes_), info_);
  info_.dma_supported = dma_listed_ || any_dma;
  if (config_) {
    const std::uint16_t w0 = *config_;
    if (w0 == 0x848A) {
      info_.device_type = DeviceType::cfa;
    } else if ((w0 & 0x8000U) != 0U && (w0 & 0x4000U) == 0U) {
      info_.device_type = DeviceType::atapi;
    }
  }
  if (info_.model.empty()) info_.warnings.push_back("Model= is empty");
}

}  // namespace disktune::probe::text
