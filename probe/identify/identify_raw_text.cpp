// SPDX-License-Identifier: GPL-2.0-or-later
// Raw identify words as text (/proc/ide/hdX/identify, hdparm --Istdout), read by hdparm
// --Istdin's rules (hdparm.c identify_from_stdin; docs/ata-reference.md §2.3).
#include "probe/identify/identify_text_internal.hpp"

#include <array>
#include <cstdint>

namespace disktune::probe::text {
namespace {

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

unsigned hex_value(char c) {
  if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
  return static_cast<unsigned>(c - 'A' + 10);
}

// A cursor over the text that counts lines, as hdparm's getchar() loop consumes it.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}
  [[nodiscard]] bool at_end() const { return pos_ >= text_.size(); }
  char get() {
    const char c = text_[pos_++];
    if (c == '\n') ++line_;
    return c;
  }
  [[nodiscard]] int line() const { return line_; }
  [[nodiscard]] std::size_t pos() const { return pos_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

// hdparm reads four characters; four hex digits make a word. Otherwise the characters read
// are dropped; before the first word the rest of that line is skipped too.
struct Scan {
  std::array<std::uint16_t, 256> words{};
  int count = 0;
  int last_line = 0;         // line of the last character read
  int first_noise_line = 0;  // first line after the first word with skipped non-blank text
  std::size_t end_pos = 0;   // where reading stopped
};

void skip_line(Reader& reader, char last) {
  while (last != '\n' && !reader.at_end()) last = reader.get();
}

Scan scan_words(std::string_view text) {
  Scan scan;
  Reader reader(text);
  while (scan.count < 256 && !reader.at_end()) {
    unsigned value = 0;
    int digits = 0;
    char c = '\0';
    while (digits < 4 && !reader.at_end()) {
      c = reader.get();
      if (!is_hex(c)) break;
      value = (value << 4) | hex_value(c);
      ++digits;
    }
    scan.last_line = reader.line();
    if (digits == 4) {
      scan.words[static_cast<std::size_t>(scan.count++)] = static_cast<std::uint16_t>(value);
    } else if (scan.count == 0) {
      skip_line(reader, c);
    } else if (c != ' ' && c != '\n' && c != '\t' && c != '\r' && scan.first_noise_line == 0 &&
               !reader.at_end()) {
      scan.first_noise_line = reader.line();
    }
  }
  scan.end_pos = reader.pos();
  return scan;
}

bool blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

}  // namespace

Result<IdentifyInfo> parse_raw_words(std::string_view text, const std::string& name) {
  const Scan scan = scan_words(text);
  if (scan.count < 256) {
    return parse_error(name, scan.last_line,
                       "only " + std::to_string(scan.count) +
                           " of 256 identify words (hdparm --Istdin rules: four hex digits "
                           "per word)");
  }
  IdentifyInfo info = decode_identify(scan.words, IdentifySource::raw);
  if (scan.first_noise_line != 0) {
    info.warnings.push_back(at_line(scan.first_noise_line) +
                            "text between the words skipped (annotation?)");
  }
  if (!blank(text.substr(scan.end_pos))) {
    info.warnings.push_back(at_line(scan.last_line) + "text after the 256th word ignored");
  }
  return info;
}

}  // namespace disktune::probe::text
