// SPDX-License-Identifier: GPL-2.0-or-later
// Watchdog: run one trial in a forked child and never block on it past its time limit.
#pragma once

#include "probe/core/clock.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace disktune::probe {

/// How a watched child ended.
enum class ChildEnd {
  finished,   ///< exited 0 after writing its payload
  failed,     ///< exited non-zero or was killed by a signal it raised itself (crash)
  timed_out,  ///< overran the limit (or the stall limit) and was killed (SIGKILL): a hang
  wedged,     ///< killed, but still in uninterruptible sleep (state D) after the reap grace:
              ///< left behind unreaped; the device it was reading must not be touched again
  stopped,    ///< killed (SIGKILL) because WatchLimits::stop_now said so (the run is stopping)
};

/// "finished", "failed", "timed_out", "wedged", "stopped".
std::string_view to_string(ChildEnd end);

/// The child's outcome as the parent saw it.
struct ChildOutcome {
  ChildEnd end = ChildEnd::failed;
  std::string payload;    ///< everything the body returned (only complete when finished)
  int exit_code = -1;     ///< exit status when it exited, else -1
  int signal = 0;         ///< terminating signal, 0 if none
  Seconds elapsed{0.0};  ///< wall time the parent waited
  std::string detail;     ///< human summary: "exit 1", "killed by SIGSEGV", "timed out after 2.0 s"
  bool stalled = false;   ///< timed_out/wedged because no heartbeat came within the stall limit
  int heartbeats = 0;     ///< heartbeats the parent received
  int pid = 0;            ///< the child's pid (still alive when wedged)
  /// Growth of WatchLimits::progress over the child's life [its unit, bytes for a device's
  /// sectors read]; 0 without a progress source.
  std::uint64_t progress = 0;
  /// Wall time between the last sign of progress (heartbeat or growth of `progress`, else
  /// the start) and the end of the watch: near 0 for a child killed while still progressing.
  Seconds since_progress{0.0};
};

/// Limits for one watched child.
struct WatchLimits {
  Seconds timeout{30.0};  ///< overall wall time; must be > 0
  /// Longest wall time without a heartbeat (counted from the start, then from the last
  /// heartbeat) before the child is killed as stalled; nullopt = only the overall timeout.
  std::optional<Seconds> stall;
  /// After SIGKILL, how long to try to reap the child before looking at its state.
  Seconds reap_grace{2.0};
  /// Child's stdin/stdout/stderr go to /dev/null, so a wedged child does not keep the
  /// caller's pipes (`disktune ... | tee log`) open.
  bool detach_stdio = false;
};

/// Optional callbacks of one watch (kept apart from WatchLimits so that its aggregate
/// initializers stay complete).
struct WatchHooks {
  /// Polled about every 10 ms: once it returns true the child is killed at once (SIGKILL,
  /// reaped as on a timeout) and ends `stopped`. Empty: never. Must be cheap and must not block.
  std::function<bool()> stop_now;
  /// Polled about every 200 ms: a counter that grows while the child's work progresses outside
  /// it (e.g. the sectors a device has read, /sys/block/NAME/stat). Growth counts as a
  /// heartbeat for the stall limit, so a child whose single read() takes long but moves
  /// the device on is not stalled. nullopt from it: no reading this time. Empty: heartbeats only.
  std::function<std::optional<std::uint64_t>()> progress;
  /// Called in the parent with each line the child sent with Heartbeat::note (without its
  /// newline), in order, as the lines arrive (also those left when the child ended). Empty:
  /// notes are read and dropped. Must not block.
  std::function<void(std::string_view)> on_note;
};

/// Progress reports from inside a watched child to its parent: one byte on a non-blocking
/// pipe, at most one write per 10 ms (a full pipe drops the byte; the parent only needs to
/// see that something arrived). Default-constructed (fd -1): beat() does nothing, so code
/// that takes a Heartbeat& also runs outside a watchdog.
class Heartbeat {
 public:
  Heartbeat() = default;
  /// Beats go to `write_fd` (O_NONBLOCK, owned by the caller).
  explicit Heartbeat(int write_fd) : fd_(write_fd) {}
  /// Beats go to `write_fd`, notes to `note_fd` (both O_NONBLOCK, owned by the caller).
  Heartbeat(int write_fd, int note_fd) : fd_(write_fd), note_fd_(note_fd) {}
  /// Outside a watchdog: no beats; notes go straight to `sink` (a body run in process).
  explicit Heartbeat(std::function<void(std::string_view)> sink) : sink_(std::move(sink)) {}
  /// Report progress (call after every read chunk or setting change). Never blocks or fails.
  void beat();
  /// Send one line of progress text to the parent's WatchHooks::on_note (a newline inside
  /// it splits it; beyond kMaxNoteBytes it is cut). Atomic on the pipe; never blocks: a full
  /// pipe (the parent reads it every 10 ms) drops the line. No errors.
  void note(std::string_view line);
  /// Longest note sent whole [bytes]: below PIPE_BUF, so one write is atomic.
  static constexpr std::size_t kMaxNoteBytes = 4000;

 private:
  int fd_ = -1;
  int note_fd_ = -1;
  std::function<void(std::string_view)> sink_;
  std::chrono::steady_clock::time_point last_{};
};

/// Point stdin, stdout and stderr at /dev/null (for a child that may outlive the caller's
/// pipes, e.g. `disktune ... | tee log`). Best effort: nothing changes if /dev/null cannot be
/// opened. No errors.
void detach_stdio();

/// Longest believable silence for a child that beats once per `beat_interval`:
/// 20 x the interval, at least `floor` (5 s: a flush or a drive reset), at most `timeout`.
Seconds stall_limit_for(Seconds beat_interval, Seconds timeout,
                               Seconds floor = Seconds{5.0});


/// fork(); the child runs `body` and sends the returned string to the parent through a pipe,
/// then _exit(0) (an exception in body: _exit(1)). The parent polls the pipe and the child
/// with `timeout` of wall time; past it, it SIGKILLs the child's process group and reaps it
/// without blocking forever. The child dies with the parent (PR_SET_PDEATHSIG).
/// The child runs in its own process group (pgid = its pid); whatever it leaves in that group
/// is SIGKILLed once it ends, also when it finished. Child exit codes set here: 1 = body
/// threw, 2 = writing the payload failed, 3 = the parent was already gone.
/// A child still unreaped 2 s after SIGKILL is left behind and never waited on again: in
/// state D (uninterruptible sleep) it is `wedged` (detail names pid, state and wchan), else
/// timed_out with its pid in detail. Setup failures (pipe2, fork): failed, detail
/// "fork: <strerror>". `timeout` must be > 0 (DT_ASSERT).
/// Source: docs/architecture.md "Hangs, crashes and reboots".
ChildOutcome run_in_child(const std::function<std::string()>& body, Seconds timeout);

/// run_in_child with a heartbeat: the body gets a Heartbeat wired to a second pipe (and its
/// notes to a third), and the
/// parent also kills the child when `limits.stall` passes without a beat (stalled = true,
/// detail "stalled: no progress for X s"). Same ends, exit codes and errors as above.
ChildOutcome run_in_child(const std::function<std::string(Heartbeat&)>& body,
                          const WatchLimits& limits);

/// The same, with hooks: `hooks.stop_now` ends the child at once (ChildEnd::stopped) and
/// `hooks.progress` counts as heartbeats when it grows (ChildOutcome::progress says by how much).
ChildOutcome run_in_child(const std::function<std::string(Heartbeat&)>& body,
                          const WatchLimits& limits, const WatchHooks& hooks);

}  // namespace disktune::probe
