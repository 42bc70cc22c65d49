// SPDX-License-Identifier: GPL-2.0-or-later
// fio jobs: the built-ins' command lines and the read-only check of a user's job file.
#include "bench/fio_job.hpp"

#include "bench/fio_process.hpp"
#include "probe/core/assert.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

namespace disktune::bench {
namespace {

probe::Error refused(std::size_t line, const std::string& why) {
  return probe::Error{std::make_error_code(std::errc::invalid_argument),
                      "fio job refused (line " + std::to_string(line) + "): " + why, ""};
}

std::string trim(std::string_view s) {
  const auto start = s.find_first_not_of(" \t\r");
  if (start == std::string_view::npos) return {};
  const auto end = s.find_last_not_of(" \t\r");
  return std::string(s.substr(start, end - start + 1));
}

std::string canonical(const std::string& path) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (!resolved) return path;
  std::string result(resolved);
  std::free(resolved);
  return result;
}

constexpr std::array kReadEngines{"sync", "psync", "vsync", "pvsync", "pvsync2", "libaio", "io_uring", "posixaio", "mmap"};
constexpr std::array kOtherFiles{"directory", "opendir", "filename_format"};
constexpr std::array kSideEffects{"exec_prerun", "exec_postrun", "unlink", "unlink_each_loop"};
// Every other option a job may set: those that shape reads, their timing and their report
// (fio's HOWTO names). A denylist missed options that write files as root (mem=mmapshared:FILE
// maps a file and reads the device into it; read_iolog replays a file; verify_state_save,
// cgroup, ...): an option not listed here is refused, whatever it does.
constexpr std::array kReadOptions{
    "name", "description", "wait_for", "wait_for_previous", "stonewall", "new_group", "group_reporting",
    "numjobs", "thread", "loops", "startdelay", "ramp_time", "runtime", "time_based", "rw", "readwrite",
    "direct", "buffered", "bs", "blocksize", "ba", "blockalign", "bsrange", "blocksize_range", "bssplit",
    "bs_unaligned", "bs_is_seq_rand", "size", "io_size", "io_limit", "offset", "offset_align",
    "offset_increment", "number_ios", "filename", "ioengine", "iodepth", "iodepth_batch",
    "iodepth_batch_submit", "iodepth_batch_complete", "iodepth_batch_complete_min",
    "iodepth_batch_complete_max", "iodepth_low", "io_submit_mode", "hipri", "fixedbufs", "registerfiles",
    "sqthread_poll", "sqthread_poll_cpu", "nonvectored", "force_async", "userspace_reap", "randrepeat",
    "allrandrepeat", "randseed", "random_generator", "random_distribution", "norandommap",
    "softrandommap", "percentage_random", "rate", "rate_iops", "rate_min", "rate_iops_min",
    "rate_process", "rate_ignore_thinktime", "rate_cycle", "thinktime", "thinktime_spin",
    "thinktime_blocks", "thinktime_blocks_type", "thinktime_iotime", "percentile_list",
    "clat_percentiles", "lat_percentiles", "slat_percentiles", "disable_lat", "disable_clat",
    "disable_slat", "disable_bw_measurement", "gtod_reduce", "unified_rw_reporting",
    "significant_figures", "cpus_allowed", "cpus_allowed_policy", "cpumask", "nice", "prio", "prioclass",
    "invalidate", "kb_base", "unit_base", "readonly", "mem", "iomem", "fadvise_hint", "pre_read",
    "continue_on_error", "ignore_error", "exitall", "exitall_on_error"};

template <class List>
bool listed(const List& list, const std::string& key) {
  return std::find(list.begin(), list.end(), key) != list.end();
}

// filename=A:B:C ('\:' escapes a colon in a name): every name must be the device.
probe::Result<void> check_filenames(std::size_t line, const std::string& value, const std::string& device_path) {
  const std::string device = canonical(device_path);
  std::string name;
  for (std::size_t i = 0; i <= value.size(); ++i) {
    if (i < value.size() && value[i] == '\\' && i + 1 < value.size() && value[i + 1] == ':') {
      name += ':';
      ++i;
    } else if (i == value.size() || value[i] == ':') {
      if (canonical(name) != device)
        return refused(line, "filename=" + value + " names another file than the device under test " +
                                 device_path + " (remove filename= to read " + device_path + ")");
      name.clear();
    } else {
      name += value[i];
    }
  }
  return {};
}

// One key=value line; sets facts.random for randread.
probe::Result<void> check_option(std::size_t line, const std::string& key, const std::string& value,
                                 const std::string& device_path, JobFileFacts& facts) {
  if (key == "rw" || key == "readwrite") {
    const auto direction = value.substr(0, value.find(':'));  // rw=randread:8 (offset modifier)
    if (direction != "read" && direction != "randread")
      return refused(line, key + "=" + value + " writes or trims: disktune only reads the device under test");
    facts.random = facts.random || direction == "randread";
  } else if (key == "thread" && value == "0") {
    return refused(line, "thread=0 forks a process per job, which would outlive a killed sample");
  } else if (key == "filename") {
    return check_filenames(line, value, device_path);
  } else if (listed(kOtherFiles, key)) {
    return refused(line, key + "= would read other files: disktune reads only " + device_path);
  } else if (listed(kSideEffects, key)) {
    return refused(line, key + " acts beyond reading (runs commands or deletes files)");
  } else if (key == "ioengine" && !listed(kReadEngines, value.substr(0, value.find(':')))) {
    return refused(line, "ioengine=" + value +
                             " is not one of sync, psync, vsync, pvsync, pvsync2, libaio, io_uring, posixaio, mmap");
  } else if ((key == "mem" || key == "iomem") && value.find(':') != std::string::npos) {
    return refused(line, key + "=" + value + " maps a file (fio writes the data it reads into it): leave the path out");
  } else if (!listed(kReadOptions, key)) {
    return refused(line, key + " is not among the fio options a job may set (they shape reads, their timing and "
                               "their report: docs/objectives.md lists them)");
  }
  return {};
}

}  // namespace

probe::Result<JobFileFacts> check_job_text(std::string_view text, const std::string& device_path) {
  JobFileFacts facts;
  std::istringstream lines{std::string(text)};
  std::size_t number = 0;
  for (std::string raw; std::getline(lines, raw);) {
    ++number;
    const std::string entry = trim(raw);
    if (entry.empty() || entry[0] == '#' || entry[0] == ';' || entry[0] == '[') continue;
    if (entry.starts_with("include ") || entry == "include")
      return refused(number, "include is not checked: put the included options in the job file");
    // fio expands ${VAR} from the environment after this check reads the line, so an expanded
    // key (${E}=... with E=exec_prerun) would get past every refusal below.
    if (entry.find("${") != std::string::npos)
      return refused(number, "${VAR} expansion is not checked (fio fills it from the environment): write the value itself");
    const auto equals = entry.find('=');
    const std::string key = trim(entry.substr(0, equals));
    const std::string value = equals == std::string::npos ? "" : trim(entry.substr(equals + 1));
    if (key.starts_with("write_"))  // write_iolog, write_bw_log, write_lat_log, ...: files written as root
      return refused(number, key + " writes a file: disktune runs fio with no effect but reading the device");
    if (key == "ioscheduler")
      return refused(number, "ioscheduler changes the device's I/O scheduler: disktune tunes it, a job may not");
    if (auto ok = check_option(number, key, value, device_path, facts); !ok) return ok.error();
  }
  return facts;
}

probe::Result<Objective> check_fio_job(const Objective& objective, const std::string& device_path) {
  if (objective.engine != Engine::fio || objective.job_file.empty()) return objective;
  // A FIFO or a device would block the read (or never end): only regular files are jobs.
  // A job file that is missing or unreadable is bad input (errc::invalid_argument: exit 2), as
  // is one that is not a regular file; strerror says why.
  const auto bad_file = [&](const std::string& why) {
    return probe::Error{std::make_error_code(std::errc::invalid_argument), "fio job file " + objective.job_file + ": " + why, ""};
  };
  struct stat st {};
  if (::stat(objective.job_file.c_str(), &st) != 0) return bad_file(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return bad_file(S_ISDIR(st.st_mode) ? std::strerror(EISDIR) : "is not a regular file");
  errno = 0;
  std::ifstream file(objective.job_file);
  std::stringstream text;
  if (!(file && text << file.rdbuf())) return bad_file(std::strerror(errno ? errno : EIO));
  const auto parsed = run_fio({"--parse-only", "--readonly", objective.job_file});
  if (!parsed) return parsed.error();
  if (parsed->exit_code != 0)
    return probe::Error{std::make_error_code(std::errc::invalid_argument),
                        "fio --parse-only rejects " + objective.job_file + ": " + fio_message(*parsed), ""};
  const auto facts = check_job_text(text.str(), device_path);
  if (!facts) {
    auto error = facts.error();
    error.op = objective.job_file + ": " + error.op;
    return error;
  }
  Objective resolved = objective;
  if (!objective.metric_given) resolved.metric = facts->random ? Metric::iops : Metric::bw;
  resolved.direction = resolved.metric == Metric::p99 || resolved.metric == Metric::p999 ? Direction::lower
                                                                                          : Direction::higher;
  return resolved;
}

std::vector<std::string> fio_arguments(const Objective& objective, const std::string& device_path,
                                       probe::Seconds duration) {
  DT_ASSERT(objective.engine == Engine::fio);
  const auto runtime_ms = std::max<long long>(1, std::llround(duration.count() * 1000.0));
  // --thread: jobs are threads of the one fio process the caller started, so whatever kills
  // it (PDEATHSIG, a watchdog's SIGKILL) ends every job; forked job processes read on.
  std::vector<std::string> args{"--readonly", "--output-format=json", "--thread", "--filename=" + device_path,
                                "--time_based", "--runtime=" + std::to_string(runtime_ms) + "ms"};
  if (!objective.job_file.empty()) {
    args.push_back(objective.job_file);
    return args;
  }
  args.push_back("--name=" + objective.name);
  if (objective.name == "seq-read-direct") {
    args.insert(args.end(), {"--rw=read", "--bs=1M", "--direct=1", "--iodepth=16", "--ioengine=libaio"});
  } else if (objective.name == "rand-read-iops") {
    args.insert(args.end(), {"--rw=randread", "--bs=4k", "--direct=1", "--iodepth=32", "--ioengine=libaio"});
  } else {
    DT_ASSERT(objective.name == "rand-read-latency");
    args.insert(args.end(), {"--rw=randread", "--bs=4k", "--direct=1", "--iodepth=1", "--ioengine=psync"});
  }
  return args;
}

}  // namespace disktune::bench
