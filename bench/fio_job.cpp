// SPDX-License-Identifier: GPL-2.0-or-later
// fio jobs: the built-ins' command lines and the read-only check of a user's job file.
#include "bench/fio_job.hpp"

#include "bench/fio_process.hpp"
#include "probe/core/assert.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <optional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace disktune::bench {
namespace {

std::string trim(std::string_view s) {
  const auto start = s.find_first_not_of(" \t\r");
  if (start == std::string_view::npos) return {};
  const auto end = s.find_last_not_of(" \t\r");
  return std::string(s.substr(start, end - start + 1));
}

// `line` 0: the whole job.
probe::Error refused(std::size_t line, const std::string& why) {
  const std::string where = line == 0 ? "" : " (line " + std::to_string(line) + ")";
  return probe::Error{std::make_error_code(std::errc::invalid_argument), "fio job refused" + where + ": " + why, ""};
}

// Bounds of a job file: far above any hand-written job, far below fio's 8191-byte pieces.
constexpr std::size_t kMaxJobBytes = 65536;
constexpr std::size_t kMaxLineBytes = 4096;
constexpr std::size_t kMaxSectionName = 128;

// Why a line holds a control character fio could read otherwise than this check (a tab is text).
std::optional<std::string> control_character(std::string_view line) {
  for (const char c : line) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t' && c != '\r') || u == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", u);
      return std::string("the line holds the control character ") + code;
    }
  }
  return std::nullopt;
}

// "[name]" -> name: printable, no brackets, at most kMaxSectionName characters.
probe::Result<std::string> section_name(std::size_t line, const std::string& entry) {
  if (entry.back() != ']')
    return refused(line, "a section header is [NAME] with nothing after the ']'");
  std::string name = trim(std::string_view(entry).substr(1, entry.size() - 2));
  if (name.empty() || name.size() > kMaxSectionName || name.find_first_of("[]") != std::string::npos)
    return refused(line, "a section name is 1-" + std::to_string(kMaxSectionName) + " characters without brackets");
  return name;
}

// The job file's text, read once through one descriptor that is a regular file: a FIFO or a
// device is refused before anything reads it (a FIFO would block, /dev/zero never end).
// Missing, unreadable or not a regular file: errc::invalid_argument (bad input, exit 2).
probe::Result<std::string> read_job_file(const std::string& path) {
  const auto bad_file = [&](const std::string& why) {
    return probe::Error{std::make_error_code(std::errc::invalid_argument), "fio job file " + path + ": " + why, ""};
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return bad_file(std::strerror(errno));
  std::string text;
  struct stat st {};
  std::optional<std::string> why;
  if (::fstat(fd, &st) != 0)
    why = std::strerror(errno);
  else if (!S_ISREG(st.st_mode))
    why = S_ISDIR(st.st_mode) ? std::strerror(EISDIR) : "is not a regular file";
  else if (static_cast<std::size_t>(st.st_size) > kMaxJobBytes)
    why = "is " + std::to_string(st.st_size) + " bytes, more than the " + std::to_string(kMaxJobBytes) +
          " a job file may hold";
  char buffer[8192];
  while (!why) {
    const auto n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) why = std::strerror(errno);
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kMaxJobBytes) why = "grew past " + std::to_string(kMaxJobBytes) + " bytes while it was read";
  }
  ::close(fd);
  if (why) return bad_file(*why);
  return text;
}

std::string canonical(const std::string& path) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (!resolved) return path;
  std::string result(resolved);
  std::free(resolved);
  return result;
}

constexpr std::array kReadEngines{"sync", "psync", "vsync", "pvsync", "pvsync2", "libaio", "io_uring", "posixaio", "mmap"};
constexpr std::array kWritingDirections{"write", "randwrite", "rw", "readwrite", "randrw", "trim", "randtrim",
                                         "trimwrite", "randtrimwrite"};
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
      return refused(line, key + "=" + value +
                               (listed(kWritingDirections, direction)
                                    ? " writes or trims: disktune only reads the device under test"
                                    : " is no direction fio knows: a job here reads with rw=read or rw=randread"));
    facts.random = facts.random || direction == "randread";
  } else if (key == "thread" && !value.empty() && value != "1") {
    // fio reads the number with sscanf (%u, %x after 0x): 00, 0x0 and +0 are 0 too.
    return refused(line, "thread=" + value + ": only thread or thread=1 (a forked job process would outlive a killed sample)");
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

// A time option's value in seconds, as fio reads it: a number with an optional unit (us, ms,
// s, m, h, d; seconds without one); a range "A-B" counts as B. nullopt when it is no time.
std::optional<double> fio_seconds(std::string value) {
  if (const auto dash = value.find('-'); dash != std::string::npos && dash > 0) value = value.substr(dash + 1);
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || !std::isfinite(number) || number < 0) return std::nullopt;
  std::string unit = trim(end);
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));  // fio: 1D is a day
  static const std::array<std::pair<const char*, double>, 7> kUnits{
      {{"", 1.0}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}, {"m", 60.0}, {"h", 3600.0}, {"d", 86400.0}}};
  for (const auto& [name, factor] : kUnits)
    if (unit == name) return number * factor;
  return std::nullopt;
}

// The longest a checked job can read for: its jobs one after another (an upper bound: jobs
// without stonewall run at once), each its runtime (its own, the [global] one before it, or
// the sample's duration) plus its ramp_time and startdelay.
probe::Seconds job_span(const std::string& checked_job, probe::Seconds duration) {
  struct Timing {
    double runtime_s, ramp_s = 0.0, delay_s = 0.0;
  };
  Timing global{duration.count()}, current = global;
  bool in_global = false, in_job = false;
  double span_s = 0.0;
  const auto close_job = [&] {
    if (in_job) span_s += current.runtime_s + current.ramp_s + current.delay_s;
  };
  std::size_t at = 0;
  while (at < checked_job.size()) {
    const auto newline = checked_job.find('\n', at);
    const std::string line = checked_job.substr(at, newline - at);
    at = newline + 1;
    if (line.starts_with("[")) {
      close_job();
      in_global = line == "[global]";
      in_job = !in_global;
      current = global;
      continue;
    }
    const auto equals = line.find('=');
    const std::string key = line.substr(0, equals);
    const auto seconds = equals == std::string::npos ? std::nullopt : fio_seconds(line.substr(equals + 1));
    Timing& target = in_global ? global : current;
    if (!seconds) continue;
    if (key == "runtime") target.runtime_s = std::max(*seconds, duration.count());
    if (key == "ramp_time") target.ramp_s = *seconds;
    if (key == "startdelay") target.delay_s = *seconds;
  }
  close_job();
  return probe::Seconds(span_s);
}

}  // namespace

probe::Result<JobFileFacts> check_job_text(std::string_view text, const std::string& device_path) {
  if (text.size() > kMaxJobBytes)
    return refused(0, "the job is " + std::to_string(text.size()) + " bytes, more than the " +
                          std::to_string(kMaxJobBytes) + " a job file may hold");
  if (text.find('\0') != std::string_view::npos) return refused(0, "the job holds a NUL byte: it is no text file");
  JobFileFacts facts;
  bool in_section = false;
  std::size_t number = 0;
  for (std::size_t at = 0; at < text.size();) {
    const auto newline = std::min(text.find('\n', at), text.size());
    const std::string_view raw = text.substr(at, newline - at);
    at = newline + 1;
    ++number;
    // fio reads a job in pieces of 8191 bytes: a longer line is two lines to fio and one to
    // a check that reads whole lines, so an option could hide behind padding.
    if (raw.size() > kMaxLineBytes)
      return refused(number, "the line is " + std::to_string(raw.size()) + " bytes long, more than the " +
                                 std::to_string(kMaxLineBytes) + " a job line may hold");
    if (auto bad = control_character(raw)) return refused(number, *bad);
    // fio ends a line at its first '#' or ';' (a comment), wherever it stands.
    const std::string entry = trim(raw.substr(0, raw.find_first_of("#;")));
    if (entry.empty()) continue;
    if (entry.find_first_of("\t\r") != std::string::npos ||
        std::any_of(entry.begin(), entry.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
      return refused(number, "a tab, CR or non-ASCII byte inside a name or value (fio's JSON report cannot carry it)");
    if (entry[0] == '[') {
      auto name = section_name(number, entry);
      if (!name) return name.error();
      facts.job += "[" + *name + "]\n";
      in_section = true;
      continue;
    }
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
    if (!in_section) return refused(number, key + " stands before any [section] (fio refuses it there)");
    // The device itself, checked above: left to disktune's --filename, so a symlink named here
    // cannot be pointed elsewhere between the check and a sample.
    if (key == "filename") continue;
    facts.job += equals == std::string::npos ? key + "\n" : key + "=" + value + "\n";
  }
  if (facts.job.empty()) return refused(number, "the job has no [section]: fio would run nothing");
  return facts;
}

probe::Result<Objective> check_fio_job(const Objective& objective, const std::string& device_path,
                                       const std::function<bool()>& stop) {
  if (objective.engine != Engine::fio || objective.job_file.empty()) return objective;
  auto text = read_job_file(objective.job_file);
  if (!text) return text.error();
  // disktune's own check first: fio sees only what it allowed, never the user's file.
  const auto facts = check_job_text(*text, device_path);
  if (!facts) {
    auto error = facts.error();
    error.op = objective.job_file + ": " + error.op;
    return error;
  }
  const auto parsed = run_fio({"--parse-only", "--readonly", "-"}, FioLimits{facts->job, kFioQuickLimit, stop});
  if (!parsed) return parsed.error();
  if (parsed->exit_code != 0)
    return probe::Error{std::make_error_code(std::errc::invalid_argument),
                        "fio --parse-only rejects " + objective.job_file + ": " + fio_message(*parsed), ""};
  Objective resolved = objective;
  resolved.checked_job = facts->job;
  if (!objective.metric_given) resolved.metric = facts->random ? Metric::iops : Metric::bw;
  resolved.direction = resolved.metric == Metric::p99 || resolved.metric == Metric::p999 ? Direction::lower
                                                                                          : Direction::higher;
  return resolved;
}

constexpr std::uint64_t kLatencyBlockBytes = 4096;  // rand-read-latency reads 4 KiB blocks

std::vector<std::string> fio_arguments(const Objective& objective, const std::string& device_path,
                                       probe::Seconds duration, std::optional<std::uint64_t> bound) {
  DT_ASSERT(objective.engine == Engine::fio);
  const auto runtime_ms = std::max<long long>(1, std::llround(duration.count() * 1000.0));
  // --thread: jobs are threads of the one fio process the caller started, so whatever kills
  // it (PDEATHSIG, a watchdog's SIGKILL) ends every job; forked job processes read on.
  // A built-in percentile's samples are pooled (bench/latency_pool.hpp): json+ adds each
  // job's latency histogram to the json report.
  auto completions = percentile_completions(objective);
  if (completions && bound) completions = std::clamp<std::uint64_t>(*bound, 1, *completions);
  std::vector<std::string> args{"--readonly", completions ? "--output-format=json+" : "--output-format=json", "--thread",
                                "--filename=" + device_path};
  // A percentile's sample ends after the completions its precision needs; the duration is
  // its bound (number_ios is ignored under time_based).
  // io_size lets fio wrap around a device smaller than those reads (it stops at `size`
  // otherwise: 2 048 reads on an 8 MiB device).
  if (completions) {
    args.push_back("--number_ios=" + std::to_string(*completions));
    args.push_back("--io_size=" + std::to_string(*completions * kLatencyBlockBytes));
  } else {
    args.push_back("--time_based");
  }
  args.push_back("--runtime=" + std::to_string(runtime_ms) + "ms");
  if (!objective.job_file.empty()) {
    DT_ASSERT(!objective.checked_job.empty());  // check_fio_job first: fio reads only the checked job
    args.push_back("-");
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

probe::Seconds fio_time_limit(const Objective& objective, probe::Seconds duration) {
  DT_ASSERT(objective.engine == Engine::fio);
  return kFioStartupAllowance + (objective.job_file.empty() ? duration : job_span(objective.checked_job, duration));
}

}  // namespace disktune::bench
