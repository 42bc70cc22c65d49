// SPDX-License-Identifier: GPL-2.0-or-later
// Stop requests: SIGINT, SIGTERM and SIGHUP end a run between trials, after restoring.
#pragma once

namespace disktune::tuner {

/// Install handlers for SIGINT, SIGTERM and SIGHUP that only record the request
/// (async-signal-safe), without SA_RESTART so blocking waits return early.
void install_stop_handlers();
/// The signal number that asked the run to stop, or 0.
int stop_requested();

}  // namespace disktune::tuner
