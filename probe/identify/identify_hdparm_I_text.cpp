// SPDX-License-Identifier: GPL-2.0-or-later
// `hdparm -I` text: one drive's report found in a capture and read (docs/ata-reference.md §2.2).
#include "probe/identify/identify_hdparm_I_fields.hpp"
#include "probe/identify/identify_modes.hpp"
#include "probe/identify/identify_text_internal.hpp"

#include <algorithm>

namespace disktune::probe::text {
namespace {

bool is_device_line(std::string_view line) {
  const std::string text = trim_blanks(line);
  return text.starts_with("ATA device") || text.starts_with("ATAPI ") ||
         text.starts_with("CompactFlash ATA device") || text.starts_with("CFA ") ||
         text.starts_with("non-removable ATA device") || text.starts_with("removable ATA device");
}

std::optional<std::size_t> find_device(const std::vector<Line>& lines, std::size_t from) {
  for (std::size_t i = from; i < lines.size(); ++i) {
    if (is_device_line(lines[i].text)) return i;
  }
  return std::nullopt;
}

// hdparm prints the model bytes as they are; web copies turn bytes that are not text into
// HTML entities ("&#65533;"). Entities or control characters mean the drive (or a bridge)
// returned garbage rather than a model string.
bool garbage_model(std::string_view text) {
  if (text.find("&#") != std::string_view::npos) return true;
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20; });
}

std::string sense_note(std::string_view text) {
  const auto at = text.find("SG_IO:");
  if (at == std::string_view::npos) return {};
  const auto end = text.find('\n', at);
  const std::string line = trim_blanks(text.substr(at, std::min(end - at, std::size_t{60})));
  return "; hdparm reported '" + line + "'";
}

}  // namespace

Result<IdentifyInfo> parse_hdparm_I(std::string_view text, const std::string& name) {
  IdentifyInfo info;
  info.source = IdentifySource::hdparm_I;
  std::vector<Line> lines = split_lines(text, info.warnings);
  const auto first = find_device(lines, 0);
  if (!first) return parse_error(name, 0, "no hdparm -I device line ('ATA device, ...', 'ATAPI ...')");
  const auto next = find_device(lines, *first + 1);
  ReportParser parser(info);
  parser.device_line(trim_blanks(lines[*first].text));
  bool markup = false;
  for (std::size_t i = *first + 1; i < next.value_or(lines.size()); ++i) {
    markup = strip_markup(lines[i].text) || markup;
    parser.parse_line(lines[i]);
  }
  if (markup) info.warnings.push_back("markup (** or HTML tags) removed");
  if (parser.model_line() == 0) {
    return parse_error(name, lines[*first].number,
                       "no identify data: no Model Number line (empty or all-zero identify "
                       "block)" + sense_note(text));
  }
  if (garbage_model(parser.model_raw())) {
    return parse_error(name, parser.model_line(),
                       "garbage identify data: Model Number holds control characters or HTML "
                       "entities" +
                           sense_note(text));
  }
  parser.finish();
  if (next) {
    info.warnings.push_back(at_line(lines[*next].number) +
                            "another drive follows; only the first was parsed");
  }
  return info;
}

}  // namespace disktune::probe::text
