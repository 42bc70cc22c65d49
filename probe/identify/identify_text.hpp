// SPDX-License-Identifier: GPL-2.0-or-later
// Parsers for identify data captured as text: raw hex words, hdparm -i and hdparm -I output.
#pragma once

#include "probe/core/error.hpp"
#include "probe/identify/identify.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace disktune::probe {

/// Text formats an identify capture can come in.
enum class IdentifyFormat { raw, hdparm_i, hdparm_I };

/// Guess the format of `text`: a run of 4-hex-digit words ⇒ raw; "Model=" ⇒ hdparm -i;
/// "Model Number:" ⇒ hdparm -I. nullopt when none matches.
std::optional<IdentifyFormat> detect_identify_format(std::string_view text);

/// Parse "raw", "hdparm-i", "hdparm-I" (the --format CLI values); nullopt otherwise.
std::optional<IdentifyFormat> identify_format_from_name(std::string_view name);

/// Parse identify text. `name` (usually the file path) is used in errors and warnings.
/// raw: 256 words of four hex digits as /proc/ide/hdX/identify and hdparm --Istdout print
///   them; surrounding prompts, headers, comments, settings lines are skipped, as hdparm
///   --Istdin does (docs/ata-reference.md §2.3). The words are decoded with decode_identify.
/// hdparm_i / hdparm_I: the fields the text shows (docs/ata-reference.md §2.1, §2.2), including
///   old hdparm 3.x/4.x/6.x layouts (the seed's "mode0 ... *mode2" and "mword0" notation).
/// Errors: errc::invalid_argument, with `op` naming the line and the reason
///   ("line 12: only 200 of 256 identify words"), `path` = name.
Result<IdentifyInfo> parse_identify_text(std::string_view text, IdentifyFormat format,
                                         const std::string& name);

/// As parse_identify_text, detecting the format first (error if it cannot be detected).
Result<IdentifyInfo> parse_identify_text(std::string_view text, const std::string& name);

/// Read `path` and parse it (format given or detected). Errors: the read error (errno,
/// "read", path) or the parse error.
Result<IdentifyInfo> parse_identify_file(const std::string& path,
                                         std::optional<IdentifyFormat> format = std::nullopt);

}  // namespace disktune::probe
