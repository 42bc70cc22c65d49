// SPDX-License-Identifier: GPL-2.0-or-later
// Internal: the per-line reader behind parse_hdparm_I (probe/ only).
#pragma once

#include "probe/identify/identify.hpp"
#include "probe/identify/identify_text_internal.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace disktune::probe::text {

/// Reads the lines of one drive's `hdparm -I` report (docs/ata-reference.md §2.2): identity lines,
/// Standards "Supported:", the capacity lines, the Capabilities lines (LBA/IORDY, R/W
/// multiple, DMA:, PIO:, APM level), the Commands/features rows ("*" = enabled), HW reset
/// results (CBLID) and the checksum line. Section titles start in column 0; body lines are
/// indented (tabs or spaces). Lines it does not use are skipped; unknown column-0 lines warn.
class ReportParser {
 public:
  explicit ReportParser(IdentifyInfo& info) : info_(info) {}
  /// Read the device-type line ("ATA device, ...", "ATAPI CD-ROM, ...", "CompactFlash ...").
  void device_line(std::string_view text);
  void parse_line(const Line& line);
  /// Line of the Model Number (0 when none was seen) and its text as printed.
  [[nodiscard]] int model_line() const { return model_line_; }
  [[nodiscard]] const std::string& model_raw() const { return model_raw_; }
  /// Fill derived fields (modes, capacity, features, cable, device type).
  void finish();

 private:
  void parse_body(std::string_view text, int line);
  bool parse_identity(std::string_view text, int line);
  bool parse_capacity(std::string_view text);
  bool parse_capability(std::string_view text, int line);
  void parse_multiple(std::string_view text, int line);
  void parse_feature_row(std::string_view text);
  void finish_capacity();
  void finish_features();

  IdentifyInfo& info_;
  ModeSets modes_;
  std::string section_;
  std::string raw_;
  std::string model_raw_;  // the current line as read (parse_line squeezes blanks)
  int model_line_ = 0;
  bool cfa_row_ = false;
  bool features_seen_ = false;
  bool hw_reset_seen_ = false;
  bool cable_above_ = false;
  bool dma_line_ = false, pio_line_ = false;
  std::optional<std::uint64_t> chs_sectors_, lba_sectors_, lba48_sectors_;
};

}  // namespace disktune::probe::text
