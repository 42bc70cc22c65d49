// SPDX-License-Identifier: GPL-2.0-or-later
// Identify text entry points: format detection and names, dispatch, reading a file.
#include "probe/identify/identify_text.hpp"

#include "probe/identify/identify_text_internal.hpp"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <iterator>

namespace disktune::probe {
namespace {

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// A line that starts with at least four blank-separated four-hex-digit words.
bool raw_words_line(std::string_view line) {
  int words = 0;
  std::size_t at = 0;
  while (words < 4) {
    if (at + 4 > line.size()) return false;
    for (std::size_t i = at; i < at + 4; ++i) {
      if (!is_hex(line[i])) return false;
    }
    ++words;
    at += 4;
    if (words < 4 && (at >= line.size() || line[at] != ' ')) return false;
    ++at;
  }
  return at - 1 == line.size() || line[at - 1] == ' ' || line[at - 1] == '\r';
}

bool any_line(std::string_view text, bool (*match)(std::string_view)) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (match(text.substr(start, end - start))) return true;
    start = end + 1;
  }
  return false;
}

bool report_line(std::string_view line) {
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return false;
  line.remove_prefix(first);
  return line.starts_with("Model Number:") || line.starts_with("ATA device, with") ||
         line.starts_with("ATAPI ") || line.starts_with("CompactFlash ATA device") ||
         line.starts_with("non-removable ATA device");
}

}  // namespace

std::optional<IdentifyFormat> detect_identify_format(std::string_view text) {
  if (any_line(text, raw_words_line)) return IdentifyFormat::raw;
  if (any_line(text, report_line)) return IdentifyFormat::hdparm_I;
  if (text.find("Model=") != std::string_view::npos) return IdentifyFormat::hdparm_i;
  return std::nullopt;
}

std::optional<IdentifyFormat> identify_format_from_name(std::string_view name) {
  if (name == "raw") return IdentifyFormat::raw;
  if (name == "hdparm-i") return IdentifyFormat::hdparm_i;
  if (name == "hdparm-I") return IdentifyFormat::hdparm_I;
  return std::nullopt;
}

Result<IdentifyInfo> parse_identify_text(std::string_view text, IdentifyFormat format,
                                         const std::string& name) {
  if (text.size() > text::max_input_bytes) {
    return text::parse_error(name, 0,
                             "input too large (more than " + std::to_string(text::max_input_bytes) +
                                 " bytes; identify captures are a few KiB)");
  }
  switch (format) {
    case IdentifyFormat::raw: return text::parse_raw_words(text, name);
    case IdentifyFormat::hdparm_i: return text::parse_hdparm_i(text, name);
    case IdentifyFormat::hdparm_I: return text::parse_hdparm_I(text, name);
  }
  return text::parse_error(name, 0, "unknown identify format");
}

Result<IdentifyInfo> parse_identify_text(std::string_view text, const std::string& name) {
  if (text.size() > text::max_input_bytes) {
    return parse_identify_text(text, IdentifyFormat::raw, name);  // reports the size error
  }
  const auto format = detect_identify_format(text);
  if (!format) return text::parse_error(name, 0, text::no_identify_reason(text));
  return parse_identify_text(text, *format, name);
}

Result<IdentifyInfo> parse_identify_file(const std::string& path,
                                         std::optional<IdentifyFormat> format) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return errno_error(errno != 0 ? errno : ENOENT, "read", path);
  std::string text;
  text.resize(text::max_input_bytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) return errno_error(errno != 0 ? errno : EIO, "read", path);
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (format) return parse_identify_text(text, *format, path);
  return parse_identify_text(text, path);
}

}  // namespace disktune::probe
