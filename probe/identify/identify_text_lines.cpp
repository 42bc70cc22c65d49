// SPDX-License-Identifier: GPL-2.0-or-later
// Line splitting, markup removal, numbers and errors for the identify text parsers.
#include "probe/identify/identify_text_internal.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <system_error>

namespace disktune::probe::text {

std::vector<Line> split_lines(std::string_view text, std::vector<std::string>& warnings) {
  std::vector<Line> lines;
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++number;
    if (line.size() > max_line_bytes) {
      warnings.push_back(at_line(number) + "line of " + std::to_string(line.size()) +
                         " bytes cut to " + std::to_string(max_line_bytes));
      line = line.substr(0, max_line_bytes);
    }
    lines.push_back(Line{number, std::string(line)});
    start = end + 1;
  }
  return lines;
}

bool strip_markup(std::string& line) {
  bool changed = false;
  for (auto at = line.find("**"); at != std::string::npos; at = line.find("**")) {
    line.erase(at, 2);
    changed = true;
  }
  for (std::size_t at = line.find('<'); at != std::string::npos; at = line.find('<', at)) {
    const std::size_t close = line.find('>', at);
    const bool tag = close != std::string::npos && at + 1 < line.size() &&
                     (std::isalpha(static_cast<unsigned char>(line[at + 1])) != 0 ||
                      line[at + 1] == '/') &&
                     line.find_first_of(" =", at) > close;
    if (!tag) {
      ++at;
      continue;
    }
    line.replace(at, close - at + 1, " ");
    changed = true;
  }
  return changed;
}

Error parse_error(const std::string& name, int line, const std::string& reason) {
  return Error{std::make_error_code(std::errc::invalid_argument),
               line > 0 ? at_line(line) + reason : reason, name};
}

std::string at_line(int line) { return "line " + std::to_string(line) + ": "; }

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

std::optional<std::uint64_t> parse_number(std::string_view text) {
  std::uint64_t value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

}  // namespace disktune::probe::text
