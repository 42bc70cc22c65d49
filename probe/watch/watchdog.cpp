// SPDX-License-Identifier: GPL-2.0-or-later
// Watchdog: fork, collect the child's payload through a pipe, kill its process group on timeout.
#include "probe/watch/watchdog.hpp"

#include "probe/core/assert.hpp"
#include "probe/core/unique_fd.hpp"
#include "probe/watch/watchdog_pipes.hpp"
#include "probe/watch/watchdog_reap.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

namespace disktune::probe {
namespace {

using namespace watch_detail;

using SteadyTime = std::chrono::steady_clock::time_point;

// Exit codes of the child (besides the body's own): see run_in_child's doc comment.
constexpr int kExitThrew = 1;
constexpr int kExitWriteFailed = 2;
constexpr int kExitParentGone = 3;

// Runs in the forked child only: _exit on every path, never exit() or a return (the
// parent's atexit handlers, static destructors and stdio buffers belong to the parent).
[[noreturn]] void child_main(const std::function<std::string(Heartbeat&)>& body, int write_fd,
                             int beat_fd, int note_fd, pid_t parent, bool quiet) {
  ::setpgid(0, 0);
  // PDEATHSIG fires when the forking *thread* ends; getppid() catches a parent that died
  // before prctl took effect.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) _exit(kExitParentGone);
  if (quiet) detach_stdio();
  Heartbeat heartbeat(beat_fd, note_fd);
  std::string payload;
  try {
    payload = body(heartbeat);
  } catch (...) {
    std::fflush(nullptr);
    _exit(kExitThrew);
  }
  std::fflush(nullptr);
  _exit(write_all(write_fd, payload) ? 0 : kExitWriteFailed);
}

SteadyTime::duration steady(probe::Seconds seconds) {
  return std::chrono::duration_cast<SteadyTime::duration>(seconds);
}

// The parent's pipes to one child.
struct Pipes {
  int payload;
  int beats;
  int notes;
};

// The last sign of progress: a heartbeat, or growth of the limits' progress counter (polled
// every 200 ms).
class ProgressWatch {
 public:
  ProgressWatch(const WatchHooks& hooks, SteadyTime start)
      : source_(hooks.progress), last_(start), next_poll_(start) {
    if (source_) first_ = source_();
    latest_ = first_;
  }
  void beat(SteadyTime now) { last_ = now; }
  void poll(SteadyTime now) {
    if (!source_ || now < next_poll_) return;
    next_poll_ = now + std::chrono::milliseconds(200);
    const auto value = source_();
    if (!value) return;
    if (!first_) first_ = value;
    if (latest_ && *value > *latest_) last_ = now;
    latest_ = value;
  }
  [[nodiscard]] SteadyTime last() const { return last_; }
  void record(ChildOutcome& outcome, SteadyTime now) const {
    outcome.progress = first_ && latest_ && *latest_ > *first_ ? *latest_ - *first_ : 0;
    outcome.since_progress = now - last_;
  }

 private:
  std::function<std::optional<std::uint64_t>()> source_;
  SteadyTime last_;
  SteadyTime next_poll_;
  std::optional<std::uint64_t> first_;
  std::optional<std::uint64_t> latest_;
};

// Parent side: read the pipes and watch the child until it ends, overruns `timeout`, stays
// silent longer than `stall` or stop_now() asks to end it.
void watch_child(ChildOutcome& outcome, pid_t pid, Pipes pipes, const WatchLimits& limits,
                 const WatchHooks& hooks, SteadyTime start) {
  const SteadyTime deadline = start + steady(limits.timeout);
  ProgressWatch progress(hooks, start);
  NoteReader notes(pipes.notes, hooks.on_note);
  bool open = true;
  for (;;) {
    drain(pipes.payload, outcome.payload, open);
    notes.read_lines();
    const SteadyTime now = std::chrono::steady_clock::now();
    if (const int beats = drain_beats(pipes.beats); beats > 0) {
      outcome.heartbeats += beats;
      progress.beat(now);
    }
    progress.poll(now);
    progress.record(outcome, now);
    const ChildState state = child_state(pid);
    if (state == ChildState::ended) {
      notes.read_lines();  // the last ones, written before it exited
      return collect_ended(outcome, pid, pipes.payload, open);
    }
    if (state == ChildState::lost) return record_lost(outcome, pipes.payload, open);
    if (hooks.stop_now && hooks.stop_now()) return kill_stopped(outcome, pid, limits);
    if (now >= deadline)
      return kill_overrun(outcome, pid, limits,
                          "timed out after " + format_seconds(limits.timeout.count()) + " s (killed)");
    SteadyTime wake = deadline;
    if (limits.stall) {
      const SteadyTime stall_end = progress.last() + steady(*limits.stall);
      if (now >= stall_end) {
        outcome.stalled = true;
        return kill_overrun(outcome, pid, limits,
                            "stalled: no progress for " + format_seconds(limits.stall->count()) +
                                " s (killed)");
      }
      wake = std::min(wake, stall_end);
    }
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(wake - now);
    wait_readable(open ? pipes.payload : -1, pipes.beats,
                  std::min(left, std::chrono::milliseconds(kPollSliceMs)), notes.fd());
  }
}

ChildOutcome setup_failure(const char* op, int errnum) {
  ChildOutcome outcome;
  outcome.end = ChildEnd::failed;
  outcome.detail = std::string(op) + ": " + std::strerror(errnum);
  return outcome;
}

}  // namespace

void detach_stdio() {
  const int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0) return;
  for (int fd = 0; fd <= 2; ++fd) ::dup2(null_fd, fd);
  ::close(null_fd);
}

std::string_view to_string(ChildEnd end) {
  switch (end) {
    case ChildEnd::finished: return "finished";
    case ChildEnd::failed: return "failed";
    case ChildEnd::timed_out: return "timed_out";
    case ChildEnd::wedged: return "wedged";
    case ChildEnd::stopped: return "stopped";
  }
  return "failed";
}

void Heartbeat::beat() {
  if (fd_ < 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(10)) return;
  last_ = now;
  const char byte = '.';
  while (::write(fd_, &byte, 1) < 0 && errno == EINTR) {
  }  // EAGAIN: the pipe is full of unread beats, which says the same
}

void Heartbeat::note(std::string_view line) {
  std::size_t start = 0;
  do {  // one note per line of `line`
    const std::size_t end = std::min(line.find('\n', start), line.size());
    const std::string_view one = line.substr(start, std::min(end - start, kMaxNoteBytes));
    start = end + 1;
    if (sink_) {
      sink_(one);
      continue;
    }
    if (note_fd_ < 0) continue;
    const std::string text = std::string(one) + '\n';
    while (::write(note_fd_, text.data(), text.size()) < 0 && errno == EINTR) {
    }  // EAGAIN: the parent has not read for a while; this line is dropped
  } while (start < line.size());
  beat();
}

probe::Seconds stall_limit_for(probe::Seconds beat_interval, probe::Seconds timeout,
                               probe::Seconds floor) {
  return std::min(timeout, std::max(floor, 20.0 * beat_interval));
}

ChildOutcome run_in_child(const std::function<std::string()>& body, probe::Seconds timeout) {
  return run_in_child([&body](Heartbeat&) { return body(); }, WatchLimits{timeout, std::nullopt});
}

ChildOutcome run_in_child(const std::function<std::string(Heartbeat&)>& body,
                          const WatchLimits& limits) {
  return run_in_child(body, limits, WatchHooks{});
}

ChildOutcome run_in_child(const std::function<std::string(Heartbeat&)>& body,
                          const WatchLimits& limits, const WatchHooks& hooks) {
  DT_ASSERT(limits.timeout > probe::Seconds{0.0});
  DT_ASSERT(!limits.stall || *limits.stall > probe::Seconds{0.0});
  const SteadyTime start = std::chrono::steady_clock::now();
  int fds[2];
  int beat_fds[2];
  if (!make_pipe(fds)) return setup_failure("pipe2", errno);
  UniqueFd read_end(fds[0]);
  UniqueFd write_end(fds[1]);
  if (!make_pipe(beat_fds)) return setup_failure("pipe2", errno);
  UniqueFd beat_read(beat_fds[0]);
  UniqueFd beat_write(beat_fds[1]);
  int note_fds[2];
  if (!make_pipe(note_fds)) return setup_failure("pipe2", errno);
  UniqueFd note_read(note_fds[0]);
  UniqueFd note_write(note_fds[1]);
  std::fflush(nullptr);  // or the child would print the parent's buffered output again
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return setup_failure("fork", errno);
  if (pid == 0) {
    ::close(fds[0]);
    ::close(beat_fds[0]);
    ::close(note_fds[0]);
    // The payload is written in one go at the end: blocking writes are right for it.
    ::fcntl(fds[1], F_SETFL, ::fcntl(fds[1], F_GETFL) & ~O_NONBLOCK);
    child_main(body, fds[1], beat_fds[1], note_fds[1], parent, limits.detach_stdio);
  }
  write_end.reset();
  beat_write.reset();
  note_write.reset();
  ::setpgid(pid, pid);  // races with the child's own setpgid on purpose: either makes the group
  ChildOutcome outcome;
  outcome.pid = pid;
  watch_child(outcome, pid, Pipes{read_end.get(), beat_read.get(), note_read.get()}, limits, hooks, start);
  outcome.elapsed = std::chrono::steady_clock::now() - start;
  return outcome;
}

}  // namespace disktune::probe
