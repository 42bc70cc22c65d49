// SPDX-License-Identifier: GPL-2.0-or-later
// Stop requests: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 end a run (the current trial within a grace), after restoring.
#pragma once

#include <string>

namespace disktune::tuner {

/// How long the trial running when the first stop signal came may go on before it is
/// killed [s]: well inside systemd's 90 s between SIGTERM and SIGKILL.
inline constexpr double kStopGraceSeconds = 10.0;

/// Install handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 that only record the request
/// (async-signal-safe), without SA_RESTART so blocking waits return early.
void install_stop_handlers();
/// The signal number that asked the run to stop (the first one), or 0.
int stop_requested();
/// True once the current trial must end at once: a second stop signal came, or the first
/// came more than kStopGraceSeconds ago. Cheap (a flag and a monotonic clock read): the
/// watchdog polls it every 10 ms.
bool stop_now();
/// "stopped by signal 15 (SIGTERM)" for the signal stop_requested() returns (non-zero).
std::string stop_message(int signal);

}  // namespace disktune::tuner
