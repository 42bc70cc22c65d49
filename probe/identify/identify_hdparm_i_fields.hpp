// SPDX-License-Identifier: GPL-2.0-or-later
// Internal: the per-line field parser behind parse_hdparm_i (probe/ only).
#pragma once

#include "probe/identify/identify.hpp"
#include "probe/identify/identify_text_internal.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace disktune::probe::text {

/// Reads the lines of one drive's `hdparm -i` block into an IdentifyInfo: "Key=value"
/// fields split at top-level ", " (docs/ata-reference.md §2.1), mode lists ("PIO modes:", "DMA
/// modes:", "UDMA modes:", anywhere in a line as hdparm 3.x printed them), AdvancedPM /
/// WriteCache, and the "Drive conforms to" / "Drive Supports" version list (a wrapped
/// continuation line of version tokens is joined). Unknown fields and lines become warnings.
class IFieldParser {
 public:
  explicit IFieldParser(IdentifyInfo& info) : info_(info) {}
  /// True when the line opens a "{" it does not close (a mail-wrapped Config={...}).
  [[nodiscard]] bool needs_continuation(std::string_view line) const;
  /// Record that markup (markdown "**", HTML tags) was removed from a line.
  void note_markup(int line);
  void parse_line(const Line& line);
  /// Fill the derived fields (modes, device type, DMA support) once all lines are read.
  void finish();

 private:
  void parse_fields(std::string_view fields, int line);
  void parse_field(std::string_view key, std::string_view value, int line);
  void parse_multsect(std::string_view value, int line);
  void parse_config(std::string_view value, int line);
  void parse_apm(std::string_view value, int line);
  void parse_write_cache(std::string_view value, int line);
  bool parse_versions(std::string_view list, int line);
  std::optional<int> small_number(std::string_view key, std::string_view value, int line);

  IdentifyInfo& info_;
  ModeSets modes_;
  std::optional<int> old_pio_;              // hdparm 3.x "OldPIO=N" (word 51 high byte)
  std::optional<std::uint16_t> config_;     // word 0 rebuilt from the Config={...} names
  bool dma_listed_ = false;                 // "DMA=yes", tDMA or a DMA modes list seen
  bool last_was_versions_ = false;
  bool markup_noted_ = false;
};

}  // namespace disktune::probe::text
