// SPDX-License-Identifier: GPL-2.0-or-later
// The built-in seed drive of "sim:": IBM-DJNA-352500's hdparm -i text, compiled in.
#pragma once

#include <string_view>

namespace disktune::probe {

/// The seed drive's `hdparm -i` output, byte-identical to probe/sim/data/
/// seed_ibm-djna-352500.hdparm-i.txt (from the classic hdparm walkthrough, docs/architecture.md
/// "The simulated drive"). Embedded at build time by probe/sim/CMakeLists.txt; never empty.
std::string_view seed_identify_text();

/// Name used for the embedded text in parse errors and warnings.
inline constexpr std::string_view kSeedIdentifyName = "built-in seed IBM-DJNA-352500 (hdparm -i)";

}  // namespace disktune::probe
