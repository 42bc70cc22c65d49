// SPDX-License-Identifier: GPL-2.0-or-later
// `hdparm -i` text (HDIO_GET_IDENTITY layout, hdparm 3.x to 9.x; docs/ata-reference.md §1.4, §2.1).
#include "probe/identify/identify_hdparm_i_fields.hpp"
#include "probe/identify/identify_modes.hpp"
#include "probe/identify/identify_text_internal.hpp"

namespace disktune::probe::text {
namespace {

bool is_device_header(const std::string& line) {
  const std::string trimmed = trim_blanks(line);
  return trimmed.starts_with("/dev/") && trimmed.ends_with(":") &&
         trimmed.find(' ') == std::string::npos;
}

// The drive's block: from its Model= line to the first blank line or device header.
struct Block {
  std::size_t first = 0, end = 0;
};

std::optional<std::size_t> find_model(const std::vector<Line>& lines, std::size_t from) {
  for (std::size_t i = from; i < lines.size(); ++i) {
    if (lines[i].text.find("Model=") != std::string::npos) return i;
  }
  return std::nullopt;
}

Block drive_block(const std::vector<Line>& lines, std::size_t first) {
  std::size_t end = first + 1;
  while (end < lines.size() && !trim_blanks(lines[end].text).empty() &&
         !is_device_header(lines[end].text) &&
         lines[end].text.find("Model=") == std::string::npos) {
    ++end;
  }
  return Block{first, end};
}

void warn_about_rest(const std::vector<Line>& lines, std::size_t end, IdentifyInfo& info) {
  if (const auto next = find_model(lines, end)) {
    int more = 0;
    for (auto i = next; i; i = find_model(lines, *i + 1)) ++more;
    info.warnings.push_back(at_line(lines[*next].number) + std::to_string(more) +
                            " more drive(s) follow; only the first was parsed");
    return;
  }
  for (std::size_t i = end; i < lines.size(); ++i) {
    const std::string trimmed = trim_blanks(lines[i].text);
    if (trimmed.empty() || trimmed.find("signifies the current active mode") != std::string::npos) {
      continue;
    }
    info.warnings.push_back(at_line(lines[i].number) + "text after the drive's lines ignored");
    return;
  }
}

}  // namespace

Result<IdentifyInfo> parse_hdparm_i(std::string_view text, const std::string& name) {
  IdentifyInfo info;
  info.source = IdentifySource::hdparm_i;
  std::vector<Line> lines = split_lines(text, info.warnings);
  const auto first = find_model(lines, 0);
  if (!first) return parse_error(name, 0, "no 'Model=' line (no hdparm -i identify data)");
  const Block block = drive_block(lines, *first);
  IFieldParser parser(info);
  for (std::size_t i = block.first; i < block.end; ++i) {
    if (strip_markup(lines[i].text)) parser.note_markup(lines[i].number);
    const bool joined = i + 1 < block.end && parser.needs_continuation(lines[i].text);
    if (joined) lines[i + 1].text = lines[i].text + " " + lines[i + 1].text;
    if (!joined) parser.parse_line(lines[i]);
  }
  parser.finish();
  warn_about_rest(lines, block.end, info);
  return info;
}

}  // namespace disktune::probe::text
