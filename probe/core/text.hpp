// SPDX-License-Identifier: GPL-2.0-or-later
// Small text forms every layer prints: a number through one printf conversion, a count with
// its noun, a device number as the kernel writes it (MAJ:MIN).
#pragma once

#include <sys/sysmacros.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::probe {

/// `value` formatted by `format`, a printf format holding exactly one floating conversion
/// ("%g", "%.1f", "%8.2f"): what std::format would give, in the notation hdparm's and fio's
/// outputs use. Text past 63 characters is cut (no format used here comes near it).
inline std::string printf_number(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

/// "1 seed", "2 seeds", "0 seeds": `count` and `noun`, the noun in `plural` unless the count
/// is one (by default the noun with an "s": "strategy" gives its own, "strategies").
inline std::string counted(std::size_t count, const std::string& noun, const std::string& plural = "") {
  return std::to_string(count) + " " + (count == 1 ? noun : plural.empty() ? noun + "s" : plural);
}

/// A device number as "MAJ:MIN" (decimal), the form of /sys/block/NAME/dev, /proc/self/mountinfo
/// and udev's /run/udev/data/bMAJ:MIN (Documentation/admin-guide/devices.rst).
inline std::string dev_number_text(dev_t number) {
  return std::to_string(major(number)) + ":" + std::to_string(minor(number));
}

/// `parts` in order with `separator` between them ("a; b; c"); "" for none.
inline std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? std::string() : std::string(separator)) + part;
  return text;
}

/// `text` with every control character (bytes < 0x20 and 0x7f) replaced by '?': a name the
/// user gave or a drive reported (a path may hold a newline, an identify string anything) kept
/// on one line of a message, a comment or a log, where it could otherwise end the line early or
/// move the terminal's cursor.
inline std::string one_line(std::string_view text) {
  std::string safe(text);
  for (auto& c : safe)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return safe;
}

}  // namespace disktune::probe
