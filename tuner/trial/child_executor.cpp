// SPDX-License-Identifier: GPL-2.0-or-later
// ChildExecutor: TrialRunner's trials of every kind, their errors and their stops as strategies' values.
#include "tuner/trial/child_executor.hpp"

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
  if (ran.stopped) {
    auto stop = pending_stop().value_or(Stop{StopReason::signal, "stopped", std::nullopt});
    // Killed to stop the run: a search trial's result is not recorded (a resume runs it
    // again); a baseline trial's says why the baseline is missing.
    stop.trial.reset();
    if (request.kind != strategies::TrialKind::search) stop.trial = std::move(*trial);
    return stop;
  }
  // Wedged here and now: the trial is recorded and reported, and nothing touches the device again.
  if (ran.health.wedged()) return Stop{StopReason::wedged, "device wedged", std::move(*trial)};
  return strategies::TrialMeasurement{std::move(*trial), ran.cached_mib_s, ran.data_crc32};
}

}  // namespace disktune::tuner
