// SPDX-License-Identifier: GPL-2.0-or-later
// TrialResult: what one evaluated configuration produced.
#pragma once

#include "probe/settings.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace disktune::strategies {

/// Outcome class of one trial (the report's "status").
enum class TrialStatus {
  ok,           ///< applied, read back as applied, measured without errors
  hang,         ///< the watchdog killed the trial child after its time limit
  error,        ///< the trial failed (read error, EIO from the drive, crash of the child)
  unsupported,  ///< the driver refused a setting of this configuration
  unstable,     ///< finished, but a setting did not read back or errors were seen
  wedged,       ///< the killed trial child stayed in uninterruptible sleep: the device is
                ///< wedged, the run ends (exit 5) and nothing touches the device again
};

/// "ok", "hang", "error", "unsupported", "unstable", "wedged".
std::string_view to_string(TrialStatus status);

/// One trial: the full configuration, its status, raw samples (MiB/s) and their median.
struct TrialResult {
  int id = 0;                        ///< 1-based, in evaluation order; 0 = baseline
  probe::Settings settings;          ///< the full configuration tried
  TrialStatus status = TrialStatus::error;
  std::vector<double> samples_mib_s; ///< buffered-read samples, MiB/s
  double median_mib_s = 0.0;         ///< 0 when not ok
  double spread_pct = 0.0;           ///< relative spread (max-min)/median, percent
  std::string detail;                ///< why it is not ok, or evidence; empty when ok
};

}  // namespace disktune::strategies
