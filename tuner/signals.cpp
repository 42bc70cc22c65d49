// SPDX-License-Identifier: GPL-2.0-or-later
// Stop-request signal handlers.
#include "tuner/signals.hpp"

#include <csignal>
#include <initializer_list>

#include <unistd.h>

namespace disktune::tuner {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

// write(2) is async-signal-safe; the message says why nothing happens at once.
void on_stop(int signal) {
  static constexpr char kMessage[] =
      "\ndisktune: stop requested: ending after the current trial, then restoring the settings\n";
  if (g_stop_signal == 0) (void)!::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  g_stop_signal = signal;
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop;
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
  // `disktune tune ... | head` must not kill the run mid-trial (a trial child dies with its
  // parent, leaving its settings applied): a closed pipe only fails that write.
  std::signal(SIGPIPE, SIG_IGN);
}

int stop_requested() { return g_stop_signal; }

}  // namespace disktune::tuner
