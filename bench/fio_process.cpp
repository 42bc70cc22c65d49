// SPDX-License-Identifier: GPL-2.0-or-later
// fio as a subprocess: fork, PDEATHSIG, execvp, both pipes drained with poll, waitpid.
#include "bench/fio_process.hpp"

#include <array>
#include <cerrno>
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

// Runs in the forked child only: async-signal-safe calls, then exec or _exit.
[[noreturn]] void exec_child(std::vector<char*>& argv, int out_fd, int err_fd, int exec_fd, pid_t parent) {
  // PDEATHSIG fires when the forking thread ends; getppid() catches a parent already gone.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) _exit(127);
  const int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd < 0 || ::dup2(null_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) _exit(127);
  ::execvp("fio", argv.data());
  const int e = errno;
  [[maybe_unused]] const auto n = ::write(exec_fd, &e, sizeof e);
  _exit(127);
}

// Reads both pipes to their ends (poll, so neither fills while fio writes the other).
probe::Result<void> drain(int out_fd, int err_fd, FioRun& run) {
  std::array<pollfd, 2> fds{pollfd{out_fd, POLLIN, 0}, pollfd{err_fd, POLLIN, 0}};
  std::array<std::string*, 2> sinks{&run.out, &run.err};
  int open_count = 2;
  char buffer[65536];
  while (open_count > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return probe::errno_error(errno, "poll fio's output", "");
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const auto n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;
        --open_count;
      } else {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      }
    }
  }
  return {};
}

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

}  // namespace

probe::Result<FioRun> run_fio(const std::vector<std::string>& args) {
  std::vector<std::string> words{"fio"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  Fds out, err, exec;
  if (!out.open() || !err.open() || !exec.open()) return probe::errno_error(errno, "pipe2 for fio", "");
  std::fflush(nullptr);  // or the child could print the parent's buffered output again
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return probe::errno_error(errno, "fork for fio", "");
  if (pid == 0) exec_child(argv, out.fd[1], err.fd[1], exec.fd[1], parent);
  Fds::close_one(out.fd[1]);
  Fds::close_one(err.fd[1]);
  Fds::close_one(exec.fd[1]);
  FioRun run;
  const auto drained = drain(out.fd[0], err.fd[0], run);
  const int failed_exec = exec_errno(exec.fd[0]);
  run.exit_code = wait_exit_code(pid);
  if (failed_exec == ENOENT)
    return probe::errno_error(ENOENT, "fio not found: install Debian's fio package (scripts/setup does)", "");
  if (failed_exec != 0) return probe::errno_error(failed_exec, "exec fio", "");
  if (!drained) return drained.error();
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
