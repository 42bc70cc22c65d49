// SPDX-License-Identifier: GPL-2.0-or-later
// Internal pieces of the identify text parsers (probe/ only): lines, errors, mode lists.
#pragma once

#include "probe/core/error.hpp"
#include "probe/identify/identify.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::probe::text {

/// Inputs larger than this are rejected before parsing [bytes].
inline constexpr std::size_t max_input_bytes = 1 << 20;
/// Lines longer than this are cut (with a warning) before parsing [bytes].
inline constexpr std::size_t max_line_bytes = 4096;

/// One input line: 1-based number and text without the line end ('\r' removed).
struct Line {
  int number = 0;
  std::string text;
};

/// Split `text` into lines; over-long lines are cut and reported in `warnings`.
std::vector<Line> split_lines(std::string_view text, std::vector<std::string>& warnings);

/// Remove markdown bold markers ("**") and HTML tags ("<strong>") that posts wrap around
/// hdparm output. Returns true when something was removed.
bool strip_markup(std::string& line);

/// A parse failure: errc::invalid_argument, op = "line N: reason" (or just the reason
/// when line is 0), path = name.
Error parse_error(const std::string& name, int line, const std::string& reason);

/// "line N: " prefix for warnings.
std::string at_line(int line);

/// True when `text` starts with `prefix`, ignoring ASCII case.
bool starts_with_nocase(std::string_view text, std::string_view prefix);

/// Parse a decimal unsigned number (the whole string); nullopt otherwise.
std::optional<std::uint64_t> parse_number(std::string_view text);

/// Mode numbers and '*' marks collected from hdparm mode lists ("pio0 *udma2 mword1 ...").
struct ModeSets {
  std::vector<int> pio, sdma, mdma, udma;
  std::vector<int> pio_active, sdma_active, mdma_active, udma_active;
  bool stray_star = false;  ///< a '*' that marked no mode (hdparm -I with bit 7 set)
};

/// Family that old hdparm's bare "modeN" tokens belong to ("PIO modes: mode3", "UDMA modes: mode2").
enum class BareFamily { pio, udma, none };

/// Add the tokens of one mode list to `sets`; unknown tokens become warnings.
void parse_mode_tokens(std::string_view list, BareFamily bare, int line, ModeSets& sets,
                       std::vector<std::string>& warnings);

/// Move the collected modes into `info` (sorted; PIO normalised; one active mode per family,
/// nullopt with a warning when a family has several).
void apply_modes(ModeSets sets, IdentifyInfo& info);

/// Parsers of the three formats (see parse_identify_text).
Result<IdentifyInfo> parse_raw_words(std::string_view text, const std::string& name);
Result<IdentifyInfo> parse_hdparm_i(std::string_view text, const std::string& name);
Result<IdentifyInfo> parse_hdparm_I(std::string_view text, const std::string& name);

/// Why a text holds no identify data, for the error message: names what it holds instead
/// (hdparm -t/-T timings, a settings listing, a failed identify) when recognisable.
std::string no_identify_reason(std::string_view text);

}  // namespace disktune::probe::text
