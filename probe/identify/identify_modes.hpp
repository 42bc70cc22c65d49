// SPDX-License-Identifier: GPL-2.0-or-later
// Helpers shared by the identify decoder and the text parsers: mode masks, strings, hex.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::probe {

/// Mode numbers of the set bits among the low `count` bits of `mask`, ascending.
std::vector<int> mask_to_modes(unsigned mask, int count);

/// PIO mode list as disktune reports it: sorted, unique, and with 0-2 added when 3 or 4
/// is present (a device supporting PIO n supports all lower modes; hdparm -I prints them).
std::vector<int> normalise_pio(std::vector<int> modes);

/// The mode of a one-hot "selected" mask; nullopt (with a warning naming `what`) when
/// several bits are set, nullopt without warning when none is.
std::optional<int> one_hot_mode(unsigned selected, std::string_view what,
                                std::vector<std::string>& warnings);

/// Warn when `active` is set but not among `modes`.
void check_active_supported(const std::optional<int>& active, const std::vector<int>& modes,
                            std::string_view what, std::vector<std::string>& warnings);

/// `text` without leading and trailing blanks (space, tab, CR, LF, NUL).
std::string trim_blanks(std::string_view text);

/// `text` trimmed, with every byte outside printable ASCII replaced by '?'; a warning naming
/// `what` is added when a byte was replaced (keeps records valid UTF-8 for reports).
std::string printable_text(std::string_view text, std::string_view what,
                           std::vector<std::string>& warnings);

/// Four lowercase hex digits of `value` ("00a5").
std::string hex4(unsigned value);

/// 8-bit sum of all 512 bytes of the IDENTIFY block (0 when the word-255 checksum is right).
/// Source: docs/ata-reference.md §1.2 checksum rule; hdparm identify.c sums w + (w >> 8).
std::uint8_t identify_byte_sum(const std::array<std::uint16_t, 256>& words);

}  // namespace disktune::probe
