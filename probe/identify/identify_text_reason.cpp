// SPDX-License-Identifier: GPL-2.0-or-later
// Why a capture holds no identify data: timings, a settings listing, a failed identify.
#include "probe/identify/identify_text_internal.hpp"

#include <array>

namespace disktune::probe::text {

std::string no_identify_reason(std::string_view text) {
  std::string reason =
      "no identify data: no raw hex words, no 'Model=' line (hdparm -i) and no 'Model "
      "Number:' line (hdparm -I)";
  struct Sign {
    std::string_view needle;
    std::string_view what;
  };
  constexpr std::array<Sign, 6> signs = {{
      {"(identify) failed", "a failed identify command"},
      {"HDIO_GET_IDENTITY failed", "a failed identify command"},
      {"Timing ", "hdparm -t/-T timings"},
      {"readahead    =", "hdparm settings listing"},
      {"IO_support", "hdparm settings listing"},
      {"multcount    =", "hdparm settings listing"},
  }};
  for (const Sign& sign : signs) {
    if (text.find(sign.needle) != std::string_view::npos) {
      return reason + "; the text holds " + std::string(sign.what);
    }
  }
  return reason;
}

}  // namespace disktune::probe::text
