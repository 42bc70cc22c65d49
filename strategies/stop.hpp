// SPDX-License-Identifier: GPL-2.0-or-later
// Stop: why a search must end now, as a value the Evaluator reports (never thrown).
#pragma once

#include "strategies/trial.hpp"

#include <optional>
#include <string>

namespace disktune::strategies {

/// What ended a search before its strategy did.
enum class StopReason {
  signal,          ///< a stop signal (SIGINT, SIGTERM, SIGHUP) or its grace ran out
  store_failed,    ///< a trial record could not be made durable (journal write or fsync failed)
  wedged,          ///< the trial left the device wedged: nothing touches it again
  unreadable,      ///< the restored drive no longer reads
  restore_failed,  ///< the original settings could not be restored after a trial
};

/// A stop, as TrialStore and TrialExecutor report it and Evaluator::stop() keeps it.
struct Stop {
  StopReason reason = StopReason::signal;
  std::string message;  ///< for the user: what happened, e.g. "journal /x: write: No space left on device"
  /// The trial that caused the stop when it has a result (a wedged trial): recorded in the
  /// store, reported, but not one of the search's trials (Evaluator::trials()).
  std::optional<TrialResult> trial;
};

}  // namespace disktune::strategies
