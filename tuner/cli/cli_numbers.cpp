// SPDX-License-Identifier: GPL-2.0-or-later
// Numeric command-line values (cli_numbers.hpp): parsed with std::from_chars, so "1e300",
// "inf", "+3" and "3x" are refused exactly rather than by a locale-dependent stream.
#include "tuner/cli/cli_numbers.hpp"

#include "tuner/cli/config.hpp"

#include <charconv>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace disktune::tuner {
namespace {

std::string range_text(Range range) {
  std::ostringstream text;
  text << std::setprecision(10) << range.min << " to " << range.max;
  return text.str();
}

[[noreturn]] void out_of_range(const char* name, const char* kind, Range range, const std::string& text) {
  throw UsageError(std::string("--") + name + " must be " + kind + " from " + range_text(range) + ", not '" + text + "'");
}

}  // namespace

// A whole number in `range`: no sign, fraction or exponent.
long long whole_number(const char* name, const std::string& text, Range range) {
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const auto number = static_cast<double>(value);
  if (ec != std::errc{} || end != text.data() + text.size() || number < range.min || number > range.max)
    out_of_range(name, "a whole number", range, text);
  return value;
}

// A finite number in `range` (inf, nan and 1e300 are not); `kind` names it in the error.
double bounded_number(const char* name, const char* kind, const std::string& text, Range range) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(value) || value < range.min ||
      value > range.max)
    out_of_range(name, kind, range, text);
  return value;
}

double seconds(const char* name, const std::string& text, Range range) {
  return bounded_number(name, "a number of seconds", text, range);
}

std::uint64_t parse_seed(const std::string& text) {
  std::uint64_t seed = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (ec != std::errc{} || end != text.data() + text.size() || seed > 0xFFFFFFFFu)
    throw UsageError("--seed must be a whole number from 0 to 4294967295, not '" + text + "'");
  return seed;
}

}  // namespace disktune::tuner
