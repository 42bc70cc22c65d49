// SPDX-License-Identifier: GPL-2.0-or-later
// Line-by-line reading of one drive's `hdparm -I` report (docs/ata-reference.md §2.2; identify.c).
#include "probe/identify/identify_hdparm_I_fields.hpp"

#include "probe/identify/identify_modes.hpp"

#include <algorithm>
#include <bit>

namespace disktune::probe::text {
namespace {

// Runs of blanks collapsed to one space, ends trimmed: "LBA    user" -> "LBA user".
std::string squeeze(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const bool blank = c == ' ' || c == '\t';
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out.push_back(blank ? ' ' : c);
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::optional<std::uint64_t> last_number(std::string_view text) {
  const auto start = text.find_last_of(" =:");
  return parse_number(start == std::string_view::npos ? text : text.substr(start + 1));
}

std::string_view after(std::string_view text, std::string_view prefix) {
  return text.substr(prefix.size());
}

bool contains_nocase(std::string_view text, std::string_view needle) {
  for (std::size_t i = 0; i + needle.size() <= text.size(); ++i) {
    if (starts_with_nocase(text.substr(i), needle)) return true;
  }
  return false;
}

}  // namespace

void ReportParser::device_line(std::string_view text) {
  if (text.starts_with("ATAPI")) {
    info_.device_type = DeviceType::atapi;
  } else if (text.starts_with("CompactFlash") || text.starts_with("CFA")) {
    info_.device_type = DeviceType::cfa;
  }
}

void ReportParser::parse_line(const Line& line) {
  const std::string text = squeeze(line.text);
  if (text.empty()) return;
  raw_ = line.text;
  const bool column0 = line.text.front() != ' ' && line.text.front() != '\t';
  if (text.find("Integrity word not set") != std::string::npos) {
    info_.checksum = Checksum::absent;
  } else if (column0 && text.starts_with("Checksum:")) {
    info_.checksum = text.find("incorrect") != std::string::npos ? Checksum::invalid
                                                                  : Checksum::valid;
  } else if (column0 && text.ends_with(":")) {
    section_ = text;
    hw_reset_seen_ = hw_reset_seen_ || section_ == "HW reset results:";
  } else if (column0) {
    info_.warnings.push_back(at_line(line.number) + "unrecognised line ignored: '" +
                             text.substr(0, 60) + "'");
  } else {
    parse_body(text, line.number);
  }
}

void ReportParser::parse_body(std::string_view text, int line) {
  if (parse_identity(text, line)) return;
  if (section_ == "Standards:" && text.starts_with("Supported:")) {
    std::vector<int> versions;
    std::string_view rest = after(text, "Supported:");
    bool numeric = true;
    while (!rest.empty() && numeric) {
      rest.remove_prefix(std::min(rest.find_first_not_of(' '), rest.size()));
      const std::string_view token = rest.substr(0, rest.find(' '));
      rest.remove_prefix(token.size());
      if (token.empty()) continue;
      const auto n = parse_number(token);
      numeric = n && *n >= 1 && *n <= 14;
      if (numeric) versions.push_back(static_cast<int>(*n));
    }
    if (numeric) {
      std::sort(versions.begin(), versions.end());
      info_.ata_major_versions = versions;
    }
  } else if (section_ == "Configuration:") {
    if (!parse_capacity(text) && text.starts_with("Nominal Media Rotation Rate:")) {
      const std::string rate = trim_blanks(after(text, "Nominal Media Rotation Rate:"));
      const auto rpm = parse_number(rate);
      if (rate == "Solid State Device") info_.rotation_rate = 1;
      else if (rpm && *rpm >= 0x0401 && *rpm <= 0xFFFE) info_.rotation_rate = static_cast<int>(*rpm);
    }
  } else if (section_ == "Capabilities:") {
    parse_capability(text, line);
  } else if (section_ == "Commands/features:") {
    parse_feature_row(text);
  } else if (section_ == "HW reset results:") {
    cable_above_ = cable_above_ || text.starts_with("CBLID- above Vih");
  }
}

bool ReportParser::parse_identity(std::string_view text, int line) {
  // Values keep their inner blanks ("LTN486  48x"): take them from the unsqueezed line.
  const auto value = [&](std::string_view label) {
    return printable_text(std::string_view(raw_).substr(raw_.find(label) + label.size()),
                          label.substr(0, label.size() - 1), info_.warnings);
  };
  if (text.starts_with("Model Number:")) {
    model_raw_ = trim_blanks(std::string_view(raw_).substr(raw_.find("Model Number:") + 13));
    info_.model = value("Model Number:");
    model_line_ = line;
  } else if (text.starts_with("Serial Number:")) {
    info_.serial = value("Serial Number:");
  } else if (text.starts_with("Firmware Revision:")) {
    info_.firmware = value("Firmware Revision:");
  } else if (text.starts_with("Transport:")) {
    info_.is_sata = text.find("Serial") != std::string_view::npos;
  } else {
    return false;
  }
  return true;
}

bool ReportParser::parse_capacity(std::string_view text) {
  if (text.starts_with("LBA48 user addressable sectors")) {
    lba48_sectors_ = last_number(text);
  } else if (text.starts_with("LBA user addressable sectors")) {
    lba_sectors_ = last_number(text);
    info_.lba_supported = true;  // hdparm prints this line only when word 49 bit 9 is set
  } else if (text.starts_with("CHS current addressable sectors") ||
             text.starts_with("current sector capacity")) {
    chs_sectors_ = last_number(text);
  } else {
    return false;
  }
  return true;
}

bool ReportParser::parse_capability(std::string_view text, int line) {
  if (starts_with_nocase(text, "R/W multiple sector transfer:")) {
    parse_multiple(text, line);
  } else if (text.starts_with("DMA:")) {
    dma_line_ = true;
    const std::string_view list = after(text, "DMA:");
    if (list.find("not supported") == std::string_view::npos) {
      info_.dma_supported = true;
      parse_mode_tokens(list, BareFamily::none, line, modes_, info_.warnings);
    }
  } else if (text.starts_with("PIO:")) {
    pio_line_ = true;
    const std::string_view list = after(text, "PIO:");
    if (trim_blanks(list) == "unknown") {
      info_.warnings.push_back(at_line(line) + "hdparm shows the PIO modes as unknown");
    } else {
      parse_mode_tokens(list, BareFamily::none, line, modes_, info_.warnings);
    }
  } else if (const auto at = text.find("Queue depth:"); at != std::string_view::npos) {
    const auto depth = parse_number(trim_blanks(text.substr(at + 12)));
    if (depth && *depth > 1 && *depth <= 32) info_.queue_depth = static_cast<int>(*depth);
  } else if (text.starts_with("Advanced power management level:")) {
    info_.apm.supported = true;
    if (text.find("disabled") != std::string_view::npos) info_.apm.enabled = false;
    const auto level = last_number(text);
    if (level && *level >= 1 && *level <= 254) info_.apm_level = static_cast<int>(*level);
  } else if (text.starts_with("Recommended acoustic management value:")) {
    info_.aam.supported = true;
    const auto comma = text.find(',');
    const auto recommended = last_number(text.substr(0, comma));
    const auto current = comma == std::string_view::npos ? std::nullopt : last_number(text);
    if (recommended && *recommended <= 255) info_.aam_recommended = static_cast<int>(*recommended);
    if (current && *current <= 255) info_.aam_level = static_cast<int>(*current);
  } else if (text.find("IORDY") != std::string_view::npos && !text.starts_with("Cycle time")) {
    info_.lba_supported = text.starts_with("LBA,") || text.find(" LBA,") != std::string_view::npos;
    const bool iordy = text.find("IORDY(") != std::string_view::npos;
    info_.iordy_supported = iordy && text.find("(may be)") == std::string_view::npos;
    info_.iordy_can_disable = iordy && text.find("(can be disabled)") != std::string_view::npos;
  } else {
    return false;
  }
  return true;
}

// "R/W multiple sector transfer: Max = 16 Current = 16" (or "Current = ?", "not supported").
void ReportParser::parse_multiple(std::string_view text, int line) {
  if (text.find("not supported") != std::string_view::npos) return;
  const auto max_at = text.find("Max =");
  const auto cur_at = text.find("Current =");
  if (max_at == std::string_view::npos || cur_at == std::string_view::npos || cur_at < max_at) {
    info_.warnings.push_back(at_line(line) + "R/W multiple line not understood");
    return;
  }
  const auto max = parse_number(trim_blanks(text.substr(max_at + 5, cur_at - max_at - 5)));
  const std::string current = trim_blanks(text.substr(cur_at + 9));
  if (!max || *max > 255) {
    info_.warnings.push_back(at_line(line) + "R/W multiple Max not understood");
    return;
  }
  info_.max_multsect = static_cast<int>(*max);
  if (*max != 0 && !std::has_single_bit(*max)) {
    info_.warnings.push_back(at_line(line) + "MaxMultSect " + std::to_string(*max) +
                             " is not a power of two");
  }
  if (const auto cur = parse_number(current); cur && *cur <= 255) {
    info_.multsect = static_cast<int>(*cur);
  } else if (current != "?") {
    info_.warnings.push_back(at_line(line) + "R/W multiple Current '" + current + "' not understood");
  }
}

void ReportParser::parse_feature_row(std::string_view text) {
  if (text.starts_with("Enabled")) return;
  const bool enabled = text.starts_with('*');
  const std::string name = trim_blanks(enabled ? text.substr(1) : text);
  features_seen_ = true;
  const auto set = [&](Feature& f) {
    f.supported = true;
    f.enabled = enabled;
  };
  if (starts_with_nocase(name, "Write cache")) set(info_.write_cache);
  else if (starts_with_nocase(name, "Look-ahead")) set(info_.look_ahead);
  else if (contains_nocase(name, "Advanced Power Management feature set")) set(info_.apm);
  else if (contains_nocase(name, "Automatic Acoustic Management feature set")) set(info_.aam);
  else if (contains_nocase(name, "48-bit Address feature set")) set(info_.lba48);
  else if (name == "CFA feature set") cfa_row_ = true;
}

void ReportParser::finish() {
  if (!dma_line_ && !pio_line_) {
    info_.warnings.push_back("no DMA:/PIO: lines (report cut short?); transfer modes not shown");
  }
  apply_modes(std::move(modes_), info_);
  finish_features();
  finish_capacity();
  if (cfa_row_ && info_.device_type == DeviceType::ata) info_.device_type = DeviceType::cfa;
  if (hw_reset_seen_ && !info_.is_sata) info_.cable_80wire = cable_above_;
  // A parallel drive's word 75 is legacy TCQ, which Linux no longer uses; SATA's is NCQ.
  if (!info_.is_sata) info_.queue_depth.reset();
}

void ReportParser::finish_features() {
  if (features_seen_) {
    for (Feature* f : {&info_.write_cache, &info_.look_ahead, &info_.apm, &info_.aam, &info_.lba48}) {
      if (!f->supported) f->enabled = false;
    }
  } else if (lba48_sectors_) {
    info_.lba48.supported = true;  // hdparm prints the LBA48 line only when word 83 bit 10 is set
  }
}

// hdparm's get_lba_capacity order: CHS capacity, then LBA (when shown), then LBA48 when the
// 48-bit feature is enabled. Without a Commands/features section the enabled state is not
// shown; the LBA48 value is used then (and said so).
void ReportParser::finish_capacity() {
  info_.lba_sectors = chs_sectors_.value_or(0);
  if (lba_sectors_) info_.lba_sectors = *lba_sectors_;
  if (!lba48_sectors_) return;
  if (info_.lba48.enabled.value_or(false)) {
    info_.lba_sectors = *lba48_sectors_;
  } else if (!features_seen_) {
    info_.lba_sectors = *lba48_sectors_;
    info_.warnings.push_back("48-bit feature state not shown (no Commands/features section); "
                             "LBA48 sector count used");
  }
}

}  // namespace disktune::probe::text
