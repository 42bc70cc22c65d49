// SPDX-License-Identifier: GPL-2.0-or-later
// The tune session: identify, bound the space, measure the baseline, search, restore, report.
#pragma once

#include "probe/device.hpp"
#include "results/report.hpp"
#include "tuner/run/tune_options.hpp"
#include "tuner/run_error.hpp"

#include <memory>

namespace disktune::tuner {

/// A finished tune run: the report and the exit code it maps to.
struct TuneOutcome {
  results::Report report;
  ExitCode exit_code = kExitOk;
  std::string message;  ///< why the run ended early, empty when it completed
  /// After a stop by signal, the journal kept unfinished: the command that resumes it and that
  /// --fresh starts over (the output's last line); empty otherwise.
  std::string resume_hint;
  /// The tuned device, still open: the caller closes it (drops this) after writing the
  /// outputs. The last close of a block device waits for reads still in flight to drain
  /// (bdev_release, then truncate of its page cache): after a trial's child was killed on a
  /// device slowed to a few IOPS, minutes in state D, unkillable, with no report written yet.
  std::unique_ptr<probe::Device> device;
};

/// Run `disktune tune` as configured: open the device, read identify data and capabilities,
/// snapshot the original settings, build the legal space, measure the baseline, run the
/// strategy with every trial in a watchdog child, pick the winner, restore the original
/// settings and read them back. Progress lines go to `log` (stderr).
/// Throws RunError (exit 2 or 3) when the run cannot start; a run that started always
/// returns an outcome with the report (exit 1 when interrupted, 4 when restore failed).
TuneOutcome run_tune(const TuneOptions& tune, std::ostream& log);

/// refuse_device_in_use for a tune of `tune.device`, its refusal followed by the restore a
/// killed tune of that disk still owes (pending_restore_note of --journal or the default
/// journals): the disk now in use may hold a trial's settings. Throws RunError (exit 2).
void refuse_tune_in_use(const TuneOptions& tune);

}  // namespace disktune::tuner
