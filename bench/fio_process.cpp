// SPDX-License-Identifier: GPL-2.0-or-later
// fio as a subprocess: fork, PDEATHSIG, execvp, stdin fed and both pipes drained with poll
// under a deadline and a stop check, waitpid.
#include "bench/fio_process.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace disktune::bench {
namespace {

// Closes the file descriptors it holds (-1 = none).
struct Fds {
  std::array<int, 2> fd{-1, -1};
  Fds() = default;
  Fds(const Fds&) = delete;
  Fds& operator=(const Fds&) = delete;
  ~Fds() {
    for (int f : fd) close_one(f);
  }
  static void close_one(int& f) {
    if (f >= 0) ::close(f);
    f = -1;
  }
  bool open() { return ::pipe2(fd.data(), O_CLOEXEC) == 0; }
};

// The child's three standard streams and the pipe that reports a failed exec.
struct ChildFds {
  int in = -1;  // -1: /dev/null
  int out = -1;
  int err = -1;
  int exec = -1;
  int inherit = -1;  // kept open across exec: the held device
};

// Runs in the forked child only: async-signal-safe calls, then exec or _exit.
[[noreturn]] void exec_child(std::vector<char*>& argv, const ChildFds& fds, pid_t parent) {
  // PDEATHSIG fires when the forking thread ends; getppid() catches a parent already gone.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) _exit(127);
  const int in_fd = fds.in >= 0 ? fds.in : ::open("/dev/null", O_RDONLY);
  if (in_fd < 0 || ::dup2(in_fd, 0) < 0 || ::dup2(fds.out, 1) < 0 || ::dup2(fds.err, 2) < 0) _exit(127);
  if (fds.inherit > 2 && ::fcntl(fds.inherit, F_SETFD, 0) != 0) _exit(127);
  ::execvp("fio", argv.data());
  const int e = errno;
  [[maybe_unused]] const auto n = ::write(fds.exec, &e, sizeof e);
  _exit(127);
}

using Clock = std::chrono::steady_clock;

// Why a run was ended before fio exited by itself.
enum class Ended { no, timed_out, stopped };

// Feeds `input` to fio's stdin and reads both output pipes to their ends (poll, so none fills
// while fio works another), until they close, the deadline passes or limits.stop() says so.
class Pump {
 public:
  Pump(pid_t pid, int in_fd, int out_fd, int err_fd, const FioLimits& limits, FioRun& run)
      : pid_(pid),
        run_(run),
        fds_{pollfd{out_fd, POLLIN, 0}, pollfd{err_fd, POLLIN, 0}, pollfd{in_fd, POLLOUT, 0}},
        sinks_{&run.out, &run.err},
        input_(limits.input),
        limits_(limits),
        deadline_(Clock::now() + std::chrono::duration_cast<Clock::duration>(limits.time_limit)) {
    if (input_.empty()) close_input();
  }

  probe::Result<Ended> run() {
    while (fds_[0].fd >= 0 || fds_[1].fd >= 0) {
      if (limits_.stop && limits_.stop()) return Ended::stopped;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()).count();
      if (left <= 0) return Ended::timed_out;
      const int ready = ::poll(fds_.data(), fds_.size(), static_cast<int>(std::min<long long>(left, 50)));
      if (ready < 0 && errno != EINTR) return probe::errno_error(errno, "poll fio's output", "");
      if (ready > 0) serve();
      maybe_finish();
    }
    return Ended::no;
  }

  ~Pump() { close_input(); }
  Pump(const Pump&) = delete;
  Pump& operator=(const Pump&) = delete;

 private:
  void serve() {
    char buffer[65536];
    for (std::size_t i = 0; i < 2; ++i) {
      if (fds_[i].fd < 0 || fds_[i].revents == 0) continue;
      const auto n = ::read(fds_[i].fd, buffer, sizeof buffer);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0)
        fds_[i].fd = -1;
      else
        sinks_[i]->append(buffer, static_cast<std::size_t>(n));
    }
    if (fds_[2].fd >= 0 && fds_[2].revents != 0) feed();
  }

  // Asks fio to finish (SIGINT, once) when the finish hook says so about new output.
  void maybe_finish() {
    if (!limits_.finish || run_.finished_early || run_.out.size() == seen_) return;
    seen_ = run_.out.size();
    if (!limits_.finish(run_.out)) return;
    run_.finished_early = true;
    ::kill(pid_, SIGINT);
  }

  void feed() {
    const auto n = ::write(fds_[2].fd, input_.data() + written_, input_.size() - written_);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n < 0) return close_input();  // fio closed its stdin: what it read decides
    written_ += static_cast<std::size_t>(n);
    if (written_ == input_.size()) close_input();
  }

  void close_input() {
    if (fds_[2].fd >= 0) ::close(fds_[2].fd);
    fds_[2].fd = -1;
  }

  pid_t pid_;
  FioRun& run_;
  std::size_t seen_ = 0;
  std::array<pollfd, 3> fds_;
  std::array<std::string*, 2> sinks_;
  const std::string& input_;
  std::size_t written_ = 0;
  const FioLimits& limits_;
  Clock::time_point deadline_;
};

int wait_exit_code(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}

// The errno the child's execvp failed with, 0 when exec succeeded (the pipe closed on exec).
int exec_errno(int exec_fd) {
  int e = 0;
  ssize_t n = 0;
  while ((n = ::read(exec_fd, &e, sizeof e)) < 0 && errno == EINTR) {
  }
  return n == static_cast<ssize_t>(sizeof e) ? e : 0;
}

std::string seconds_text(probe::Seconds s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", s.count());
  return text;
}

}  // namespace

probe::Result<FioRun> run_fio(const std::vector<std::string>& args, const FioLimits& limits) {
  DT_ASSERT(limits.time_limit.count() > 0.0);
  std::vector<std::string> words{"fio"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  Fds in, out, err, exec;
  if (!in.open() || !out.open() || !err.open() || !exec.open()) return probe::errno_error(errno, "pipe2 for fio", "");
  // A write end that never blocks: the pump polls it beside the outputs.
  if (::fcntl(in.fd[1], F_SETFL, O_NONBLOCK) != 0) return probe::errno_error(errno, "fcntl fio's stdin", "");
  std::fflush(nullptr);  // or the child could print the parent's buffered output again
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return probe::errno_error(errno, "fork for fio", "");
  if (pid == 0) exec_child(argv, ChildFds{limits.input.empty() ? -1 : in.fd[0], out.fd[1], err.fd[1], exec.fd[1], limits.inherit_fd}, parent);
  for (int* f : {&in.fd[0], &out.fd[1], &err.fd[1], &exec.fd[1]}) Fds::close_one(*f);
  FioRun run;
  const int in_fd = in.fd[1];
  in.fd[1] = -1;  // the pump owns and closes it
  auto ended = Pump(pid, in_fd, out.fd[0], err.fd[0], limits, run).run();
  if (ended && *ended != Ended::no) ::kill(pid, SIGKILL);
  const int failed_exec = exec_errno(exec.fd[0]);
  run.exit_code = wait_exit_code(pid);
  if (failed_exec == ENOENT)
    return probe::errno_error(ENOENT, "fio not found: install Debian's fio package (scripts/setup does)", "");
  if (failed_exec != 0) return probe::errno_error(failed_exec, "exec fio", "");
  if (!ended) return ended.error();
  if (*ended == Ended::timed_out)
    return probe::Error{std::make_error_code(std::errc::timed_out),
                        "fio ran past its time limit of " + seconds_text(limits.time_limit) + " s: killed", ""};
  if (*ended == Ended::stopped)
    return probe::Error{std::make_error_code(std::errc::interrupted), "fio ended by a stop request", ""};
  return run;
}

std::string fio_message(const FioRun& run) {
  const auto first_line = [](const std::string& text) {
    const auto start = text.find_first_not_of(" \n");
    if (start == std::string::npos) return std::string();
    return text.substr(start, text.find('\n', start) - start);
  };
  // fio prints "fio: ..." lines first; option help it adds after them is noise here.
  if (auto line = first_line(run.err); !line.empty()) return line;
  if (auto line = first_line(run.out); !line.empty()) return line;
  return "exit " + std::to_string(run.exit_code);
}

}  // namespace disktune::bench
