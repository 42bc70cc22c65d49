// SPDX-License-Identifier: GPL-2.0-or-later
// TrialResult: what one evaluated configuration produced.
#pragma once

#include "probe/settings.hpp"

#include <optional>
#include <string>
#include <cstddef>
#include <string_view>
#include <vector>

namespace disktune::strategies {

/// Outcome class of one trial (the report's "status").
enum class TrialStatus {
  ok,           ///< applied, read back as applied, measured without errors
  hang,         ///< the watchdog killed the trial child after it stopped progressing (no
                ///< heartbeat, no sector read within the stall limit or the last 5 s)
  slow,         ///< the watchdog killed the trial child at its time limit while it was still
                ///< progressing: merely slower than the limit allowed (detail: the rate reached)
  error,        ///< the trial failed (read error, EIO from the drive, crash of the child)
  unsupported,  ///< the driver refused a setting of this configuration
  unstable,     ///< finished, but a setting did not read back or errors were seen
  crashed,      ///< started and never finished: it took the process or the machine down (journal)
  wedged,       ///< the killed trial child stayed in uninterruptible sleep: the device is
                ///< wedged, the run ends (exit 5) and nothing touches the device again
};

/// "ok", "hang", "slow", "error", "unsupported", "unstable", "crashed", "wedged".
std::string_view to_string(TrialStatus status);
/// Inverse of to_string; nullopt for an unknown name.
std::optional<TrialStatus> trial_status_from_name(std::string_view name);

/// One trial: the full configuration, its status, raw samples (MiB/s) and their median.
struct TrialResult {
  int id = 0;                        ///< 1-based, in evaluation order; 0 = baseline
  probe::Settings settings;          ///< the full configuration tried
  TrialStatus status = TrialStatus::error;
  std::vector<double> samples_mib_s; ///< buffered-read samples, MiB/s
  double median_mib_s = 0.0;         ///< 0 when not ok
  double spread_pct = 0.0;           ///< relative spread (max-min)/median, percent
  std::string detail;                ///< why it is not ok, or evidence; empty when ok
  /// Kernel log error messages about the device logged during the trial (evidence kept in
  /// the report; any makes an otherwise ok trial unstable).
  std::vector<std::string> kernel_log;
  double ci_low_mib_s = 0.0;         ///< 95 % interval of the median (bench::median_interval); 0 when not ok
  double ci_high_mib_s = 0.0;
  double ci_coverage = 0.0;          ///< the interval's actual coverage (lower than 0.95 below 6 samples)
  std::vector<std::size_t> outliers; ///< indices into samples_mib_s beyond 3 scaled MADs (kept, only flagged)
  double warmup_mib_s = 0.0;         ///< the discarded warm-up sample; 0 when none was taken
  std::string sampling_stop;         ///< why sampling stopped ("precise", "clearly slower", "max samples")
  double measured_s = 0.0;           ///< measurement time spent, warm-up included [s; virtual when simulated]
  bool quick = false;                ///< measured with the minimum samples only (racing's first rung)
  bool operator==(const TrialResult&) const = default;
};

/// Fill median, spread (± half the range, percent), interval and outliers from samples_mib_s;
/// leaves them 0 / empty when there are no samples.
void summarize_samples(TrialResult& trial);

/// The median's interval bounds, or the median itself when no interval was computed.
double lower_bound(const TrialResult& trial);
double upper_bound(const TrialResult& trial);

}  // namespace disktune::strategies
