// SPDX-License-Identifier: GPL-2.0-or-later
// ChildExecutor: TrialRunner's trial, its errors and its stops as strategies::Executed values.
#include "tuner/run/child_executor.hpp"

namespace disktune::tuner {

using strategies::Stop;
using strategies::StopReason;

std::optional<Stop> ChildExecutor::pending_stop() { return stop_source_ ? stop_source_() : std::nullopt; }

strategies::Executed ChildExecutor::run(const probe::Settings& config, const strategies::TrialRequest& request) {
  auto ran = runner_.run(config, request);
  auto& trial = ran.result;
  if (!trial)
    return Stop{ran.health.unreadable() ? StopReason::unreadable : StopReason::restore_failed, trial.error().message(),
                std::nullopt};
  // Killed to stop the run: no result is recorded (a resume runs it again).
  if (ran.stopped) {
    auto stop = pending_stop();
    return stop ? std::move(*stop) : Stop{StopReason::signal, "stopped", std::nullopt};
  }
  // Wedged here and now: the trial is recorded and reported, and nothing touches the device again.
  if (ran.health.wedged()) return Stop{StopReason::wedged, "device wedged", std::move(*trial)};
  return std::move(*trial);
}

}  // namespace disktune::tuner
