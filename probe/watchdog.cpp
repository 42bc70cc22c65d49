// SPDX-License-Identifier: GPL-2.0-or-later
// Watchdog: fork, collect the child's payload through a pipe, kill its process group on timeout.
#include "probe/watchdog.hpp"

#include "probe/assert.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string_view>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace disktune::probe {
namespace {

using SteadyTime = std::chrono::steady_clock::time_point;

// After SIGKILL a child in uninterruptible sleep (state D) cannot die; stop waiting then.
constexpr std::chrono::seconds kReapGrace{2};
constexpr int kPollSliceMs = 10;

// Exit codes of the child (besides the body's own): see run_in_child's doc comment.
constexpr int kExitThrew = 1;
constexpr int kExitWriteFailed = 2;
constexpr int kExitParentGone = 3;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  [[nodiscard]] int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

// Runs in the forked child only: _exit on every path, never exit() or a return (the
// parent's atexit handlers, static destructors and stdio buffers belong to the parent).
[[noreturn]] void child_main(const std::function<std::string()>& body, int write_fd,
                             pid_t parent) {
  ::setpgid(0, 0);
  // PDEATHSIG fires when the forking *thread* ends; getppid() catches a parent that died
  // before prctl took effect.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) _exit(kExitParentGone);
  std::string payload;
  try {
    payload = body();
  } catch (...) {
    std::fflush(nullptr);
    _exit(kExitThrew);
  }
  std::fflush(nullptr);
  _exit(write_all(write_fd, payload) ? 0 : kExitWriteFailed);
}

// Appends what the non-blocking pipe holds now; clears `open` at EOF or on a read error.
void drain(int fd, std::string& payload, bool& open) {
  char chunk[65536];
  while (open) {
    const ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got > 0) {
      payload.append(chunk, static_cast<std::size_t>(got));
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return;
    } else {
      open = false;
    }
  }
}

// Sleeps until the pipe is readable or `slice` passes (fd < 0: just sleeps).
void wait_readable(int fd, std::chrono::milliseconds slice) {
  pollfd entry{fd, POLLIN, 0};
  ::poll(&entry, 1, static_cast<int>(slice.count()));  // EINTR: the caller loops anyway
}

enum class ChildState { running, ended, lost };

// `ended`: the child is a zombie, not yet reaped, so its pid (also its process group id)
// cannot be reused meanwhile. `lost`: not our child any more (SIGCHLD ignored: the kernel
// reaped it, and its pid may already belong to someone else).
ChildState child_state(pid_t pid) {
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    if (errno != EINTR) return ChildState::lost;
  }
  return info.si_pid != 0 ? ChildState::ended : ChildState::running;
}

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

std::string format_seconds(double seconds) {
  char text[32];
  const bool one_decimal = std::abs(seconds * 10.0 - std::round(seconds * 10.0)) < 1e-6;
  std::snprintf(text, sizeof text, one_decimal ? "%.1f" : "%.3f", seconds);
  return text;
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

// The child ended on its own: collect the last bytes, kill what it left in its group,
// then reap it (a zombie, so waitpid returns at once).
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

// Past the limit: SIGKILL the group, then reap for at most kReapGrace.
void kill_timed_out(ChildOutcome& outcome, pid_t pid, bench::Seconds timeout) {
  kill_group(pid);
  outcome.end = ChildEnd::timed_out;
  outcome.detail = "timed out after " + format_seconds(timeout.count()) + " s (killed)";
  const SteadyTime give_up = std::chrono::steady_clock::now() + kReapGrace;
  int status = 0;
  while (try_reap(pid, status) == 0) {
    if (std::chrono::steady_clock::now() >= give_up) {
      outcome.detail += "; pid " + std::to_string(pid) + " could not be reaped within " +
                        std::to_string(kReapGrace.count()) +
                        " s (uninterruptible sleep?), left behind";
      return;
    }
    wait_readable(-1, std::chrono::milliseconds(kPollSliceMs));
  }
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
}

// Parent side: read the pipe and watch the child until it ends or `timeout` passes.
void watch_child(ChildOutcome& outcome, pid_t pid, int fd, bench::Seconds timeout,
                 SteadyTime start) {
  const SteadyTime deadline =
      start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout);
  bool open = true;
  for (;;) {
    drain(fd, outcome.payload, open);
    const ChildState state = child_state(pid);
    if (state == ChildState::ended) return collect_ended(outcome, pid, fd, open);
    if (state == ChildState::lost) return record_lost(outcome, fd, open);
    const SteadyTime now = std::chrono::steady_clock::now();
    if (now >= deadline) return kill_timed_out(outcome, pid, timeout);
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now);
    wait_readable(open ? fd : -1, std::min(left, std::chrono::milliseconds(kPollSliceMs)));
  }
}

ChildOutcome setup_failure(const char* op, int errnum) {
  ChildOutcome outcome;
  outcome.end = ChildEnd::failed;
  outcome.detail = std::string(op) + ": " + std::strerror(errnum);
  return outcome;
}

}  // namespace

ChildOutcome run_in_child(const std::function<std::string()>& body, bench::Seconds timeout) {
  DT_ASSERT(timeout > bench::Seconds{0.0});
  const SteadyTime start = std::chrono::steady_clock::now();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return setup_failure("pipe2", errno);
  Fd read_end(fds[0]);
  Fd write_end(fds[1]);
  std::fflush(nullptr);  // or the child would print the parent's buffered output again
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return setup_failure("fork", errno);
  if (pid == 0) {
    ::close(fds[0]);
    child_main(body, fds[1], parent);
  }
  write_end.reset();
  ::setpgid(pid, pid);  // races with the child's own setpgid on purpose: either makes the group
  ::fcntl(read_end.get(), F_SETFL, ::fcntl(read_end.get(), F_GETFL) | O_NONBLOCK);
  ChildOutcome outcome;
  watch_child(outcome, pid, read_end.get(), timeout, start);
  outcome.elapsed = std::chrono::steady_clock::now() - start;
  return outcome;
}

}  // namespace disktune::probe
