// SPDX-License-Identifier: GPL-2.0-or-later
// Ending a watched child: reap it, kill its process group, tell wedged (state D) from lost.
#include "probe/watch/watchdog_reap.hpp"

#include "probe/core/assert.hpp"
#include "probe/watch/process_state.hpp"
#include "probe/watch/watchdog_pipes.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <sys/wait.h>

namespace disktune::probe::watch_detail {
namespace {

using SteadyTime = std::chrono::steady_clock::time_point;

// waitpid with WNOHANG; returns the pid when reaped, 0 while it runs, -1 on error.
pid_t try_reap(pid_t pid, int& status) {
  pid_t reaped;
  do {
    reaped = ::waitpid(pid, &status, WNOHANG);
  } while (reaped < 0 && errno == EINTR);
  return reaped;
}

void kill_group(pid_t pid) {
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);  // in case neither setpgid had run yet
}

std::string signal_name(int signal) {
  const char* abbrev = ::sigabbrev_np(signal);
  return abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

void record_status(ChildOutcome& outcome, int status) {
  if (WIFEXITED(status)) {
    outcome.exit_code = WEXITSTATUS(status);
    outcome.end = outcome.exit_code == 0 ? ChildEnd::finished : ChildEnd::failed;
    outcome.detail = "exit " + std::to_string(outcome.exit_code);
  } else if (WIFSIGNALED(status)) {
    outcome.signal = WTERMSIG(status);
    outcome.end = ChildEnd::failed;
    outcome.detail = "killed by " + signal_name(outcome.signal);
  }
}

// Left behind after the grace: wedged when it sleeps uninterruptibly, else just lost to us.
void record_left_behind(ChildOutcome& outcome, pid_t pid, const WatchLimits& limits) {
  const char state = process_state(pid);
  const std::string grace = format_seconds(limits.reap_grace.count());
  if (state == 'D') {
    const std::string wchan = process_wchan(pid);
    outcome.end = ChildEnd::wedged;
    outcome.detail += "; pid " + std::to_string(pid) + " still in state D (uninterruptible sleep" +
                      (wchan.empty() ? "" : " in " + wchan) + ") " + grace + " s after SIGKILL: wedged, left behind";
    return;
  }
  outcome.detail += "; pid " + std::to_string(pid) + " (state " + std::string(1, state) +
                    ") could not be reaped within " + grace + " s, left behind";
}

}  // namespace

ChildState child_state(pid_t pid) {
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    if (errno != EINTR) return ChildState::lost;
  }
  return info.si_pid != 0 ? ChildState::ended : ChildState::running;
}

std::string format_seconds(double seconds) {
  char text[32];
  const bool one_decimal = std::abs(seconds * 10.0 - std::round(seconds * 10.0)) < 1e-6;
  std::snprintf(text, sizeof text, one_decimal ? "%.1f" : "%.3f", seconds);
  return text;
}

// A zombie already (child_state said so): waitpid returns at once.
void collect_ended(ChildOutcome& outcome, pid_t pid, int fd, bool& open) {
  drain(fd, outcome.payload, open);
  kill_group(pid);
  int status = 0;
  pid_t reaped;
  do {
    reaped = ::waitpid(pid, &status, 0);
  } while (reaped < 0 && errno == EINTR);
  DT_ASSERT(reaped == pid);  // child_state said it is our zombie
  record_status(outcome, status);
}

void record_lost(ChildOutcome& outcome, int fd, bool& open) {
  drain(fd, outcome.payload, open);
  outcome.end = ChildEnd::failed;
  outcome.detail = "exit status lost (waitid: ECHILD; is SIGCHLD ignored?)";
}

void kill_overrun(ChildOutcome& outcome, pid_t pid, const WatchLimits& limits, std::string why) {
  kill_group(pid);
  outcome.end = ChildEnd::timed_out;
  outcome.detail = std::move(why);
  const SteadyTime give_up = std::chrono::steady_clock::now() +
                             std::chrono::duration_cast<std::chrono::steady_clock::duration>(limits.reap_grace);
  int status = 0;
  while (try_reap(pid, status) == 0) {
    if (std::chrono::steady_clock::now() >= give_up) return record_left_behind(outcome, pid, limits);
    wait_readable(-1, -1, std::chrono::milliseconds(kPollSliceMs));
  }
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
}

void kill_stopped(ChildOutcome& outcome, pid_t pid, const WatchLimits& limits) {
  kill_overrun(outcome, pid, limits, "stopped: the run was asked to stop (killed)");
  if (outcome.end == ChildEnd::timed_out) outcome.end = ChildEnd::stopped;
}

}  // namespace disktune::probe::watch_detail
