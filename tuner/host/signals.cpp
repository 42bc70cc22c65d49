// SPDX-License-Identifier: GPL-2.0-or-later
// Stop-request signal handlers.
#include "tuner/host/signals.hpp"

#include <csignal>
#include <cstring>
#include <ctime>
#include <initializer_list>

#include <unistd.h>

namespace disktune::tuner {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
volatile std::sig_atomic_t g_stop_count = 0;
volatile std::sig_atomic_t g_first_stop_s = 0;  // CLOCK_MONOTONIC seconds of the first request

long monotonic_s() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
  return static_cast<long>(now.tv_sec);
}

// write(2) and clock_gettime(2) are async-signal-safe; the messages say what happens when.
void on_stop(int signal) {
  static constexpr char kFirst[] =
      "\ndisktune: stop requested: ending the current trial (killed after 10 s), then restoring the "
      "settings; a second signal stops it at once\n";
  static constexpr char kSecond[] = "\ndisktune: second stop request: ending the current trial now\n";
  if (g_stop_count == 0) {
    g_first_stop_s = static_cast<std::sig_atomic_t>(monotonic_s());
    g_stop_signal = signal;
    (void)!::write(STDERR_FILENO, kFirst, sizeof kFirst - 1);
  } else if (g_stop_count == 1) {
    (void)!::write(STDERR_FILENO, kSecond, sizeof kSecond - 1);
  }
  if (g_stop_count < 2) g_stop_count = g_stop_count + 1;
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop;
  sigemptyset(&action.sa_mask);
  // SIGQUIT (Ctrl-\) and SIGUSR1/2 would end the process by default, leaving a trial's
  // settings applied: they are stop requests like the others.
  for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}) sigaction(signal, &action, nullptr);
  // `disktune tune ... | head` must not kill the run mid-trial (a trial child dies with its
  // parent, leaving its settings applied): a closed pipe only fails that write.
  std::signal(SIGPIPE, SIG_IGN);
}

int stop_requested() { return g_stop_signal; }

bool stop_now() {
  if (g_stop_count == 0) return false;
  // Whole seconds: the grace is 10-11 s.
  return g_stop_count >= 2 || static_cast<double>(monotonic_s() - g_first_stop_s) >= kStopGraceSeconds;
}

std::string stop_message(int signal) {
  const char* abbrev = ::sigabbrev_np(signal);
  return "stopped by signal " + std::to_string(signal) + " (SIG" + std::string(abbrev ? abbrev : "?") + ")";
}

}  // namespace disktune::tuner
