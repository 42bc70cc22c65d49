// SPDX-License-Identifier: GPL-2.0-or-later
// Drive workers: fork/exec per drive, a queue per group, stop signals forwarded, exit statuses read.
#include "tuner/fleet/drive_workers.hpp"

#include "tuner/host/shell_word.hpp"

#include "tuner/host/signals.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <deque>
#include <fstream>
#include <thread>

namespace disktune::tuner {
namespace {

using Clock = std::chrono::steady_clock;

// In the forked child: only async-signal-safe calls until execv.
[[noreturn]] void exec_worker(const DriveRun& run, pid_t parent, std::vector<char*>& argv) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) ::_exit(kExitPartial);  // the parent died before prctl
  const int fd = ::open(run.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) ::_exit(kExitUsage);
  ::dup2(fd, STDOUT_FILENO);
  ::dup2(fd, STDERR_FILENO);
  ::execv("/proc/self/exe", argv.data());  // this binary, named argv[0] as the user ran it (its hints print it)
  ::_exit(127);
}

pid_t start_worker(DriveRun& run, Clock::time_point began) {
  std::vector<char*> argv;
  for (auto& arg : run.argv) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  run.start_s = std::chrono::duration<double>(Clock::now() - began).count();
  const pid_t pid = ::fork();
  if (pid == 0) exec_worker(run, parent, argv);
  if (pid < 0) {
    run.exit_code = kExitDevice;
    run.outcome = std::string("could not start its worker: fork: ") + std::strerror(errno);
  }
  return pid;
}

// The last "disktune: ..." line a worker wrote: why it failed, for the summary.
std::string last_message(const std::string& log_path) {
  std::ifstream in(log_path);
  std::string last;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("disktune: ", 0) == 0) last = line.substr(10);
  return last;
}

std::string exit_meaning(int code) {
  switch (code) {
    case kExitOk: return "completed";
    case kExitPartial: return "interrupted, settings restored";
    case kExitUsage: return "usage or input error";
    case kExitDevice: return "device error";
    case kExitRestoreFailed: return "restore failed";
    case kExitWedged: return "wedged: a trial is stuck in the kernel, device left alone";
    case kExitTooNoisy: return "too noisy for an answer";
    case 127: return "its worker could not be started";
    default: return "exit " + std::to_string(code);
  }
}

// The command that puts back what a killed worker may have left on its drive.
std::vector<std::string> restore_words(const DriveRun& run) {
  std::vector<std::string> words{"disktune", "restore", path_word(run.device)};
  if (!run.journal_path.empty()) words.insert(words.end(), {"--journal", path_word(run.journal_path)});
  return words;
}

void record_status(DriveRun& run, int status, Clock::time_point began) {
  run.end_s = std::chrono::duration<double>(Clock::now() - began).count();
  if (WIFSIGNALED(status)) {
    run.exit_code = kExitRestoreFailed;
    run.outcome = "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) +
                  "): settings may not be restored, run " + quoted_command(restore_words(run));
    return;
  }
  run.exit_code = WEXITSTATUS(status);
  run.outcome = exit_meaning(run.exit_code);
  // The worker's own last message says it best ("too noisy for an answer: ..." repeats the meaning).
  if (const auto message = last_message(run.log_path); run.exit_code != kExitOk && !message.empty())
    run.outcome = message.rfind(run.outcome, 0) == 0 ? message : run.outcome + ": " + message;
}

// Each new stop stage of the parent (the first signal; the second, or the grace over) is
// passed on once to every running worker.
void forward_stops(const std::vector<std::pair<pid_t, std::size_t>>& running, int& forwarded) {
  const int stage = stop_now() ? 2 : stop_requested() ? 1 : 0;
  for (; forwarded < stage; ++forwarded)
    for (const auto& [pid, run] : running) ::kill(pid, forwarded == 0 ? stop_requested() : SIGTERM);
}

}  // namespace

void run_workers(std::vector<DriveRun>& runs, std::size_t groups) {
  install_stop_handlers();
  const auto began = Clock::now();
  std::vector<std::deque<std::size_t>> queues(groups);
  for (std::size_t i = 0; i < runs.size(); ++i) queues[runs[i].group].push_back(i);
  std::vector<std::pair<pid_t, std::size_t>> running;
  auto start_next = [&](std::size_t group) {
    while (!queues[group].empty() && !stop_requested()) {
      const std::size_t next = queues[group].front();
      queues[group].pop_front();
      if (const pid_t pid = start_worker(runs[next], began); pid > 0) {
        running.emplace_back(pid, next);
        return;
      }
    }
  };
  for (std::size_t group = 0; group < groups; ++group) start_next(group);
  int forwarded = 0;
  while (!running.empty()) {
    forward_stops(running, forwarded);
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid <= 0) {
      if (pid < 0 && errno == ECHILD) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    const auto it = std::find_if(running.begin(), running.end(), [&](const auto& r) { return r.first == pid; });
    if (it == running.end()) continue;
    const std::size_t done = it->second;
    running.erase(it);
    record_status(runs[done], status, began);
    start_next(runs[done].group);
  }
  for (auto& run : runs)
    if (run.exit_code < 0) {
      run.exit_code = kExitPartial;
      run.outcome = "not run: " + stop_message(stop_requested());
    }
}

}  // namespace disktune::tuner
