// SPDX-License-Identifier: GPL-2.0-or-later
// The fio job of an objective: the built-ins' parameters, and a user's job file checked to
// read only the device under test.
#pragma once

#include "bench/objective.hpp"
#include "probe/core/clock.hpp"
#include "probe/core/error.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::bench {

/// What a checked job file does, and the job fio is given in its place.
struct JobFileFacts {
  bool random = false;  ///< some section sets rw=randread (readwrite=randread)
  /// The job as checked: "[section]" and "key" or "key=value" lines, one option a line,
  /// comments, blank lines and the spaces around '=' removed, only the allowed options.
  std::string job;
};

/// What fio is allowed beyond the reading itself, in every sample's time limit: its start
/// (engine set-up, opening the device, a parse) and its JSON output [s].
inline constexpr probe::Seconds kFioStartupAllowance{30.0};

/// Check a job file's text (fio's INI format: [sections], key or key=value; as fio reads it, a
/// line ends at its first '#' or ';') for a sample of `device_path`, and rewrite it as the job
/// fio will run (JobFileFacts::job). Refused (errc::invalid_argument, op naming the line and why):
/// - what fio could read otherwise than this check: a line longer than 4096 bytes (fio reads
///   8191-byte pieces, so padding could turn one line into two), a control character, a NUL
///   byte, a job over 64 KiB, an option before any [section], a malformed section header;
/// - anything but reads: rw/readwrite other than read or randread (write, randwrite, rw,
///   readwrite, randrw, trim, randtrim, trimwrite, randtrimwrite; so also a verify of writes);
/// - another file: filename= naming anything but `device_path` (each ':'-separated name,
///   compared after realpath), directory=, opendir=, filename_format=. Refused, not
///   overridden: a job written for /dev/sdb must not silently measure /dev/sdc, and a job
///   measured on another file would judge the settings by a device they do not touch. A job
///   without filename= reads the device under test (disktune passes --filename);
/// - thread=0: disktune runs jobs as threads (--thread) so that killing fio ends them all;
/// - side effects beyond reading: exec_prerun/exec_postrun (run commands), unlink and
///   unlink_each_loop (delete their files: the device node here), `include` (a file this
///   check would not see), and any ioengine but sync, psync, vsync, pvsync, pvsync2, libaio,
///   io_uring, posixaio, mmap (the file engines create and delete files, exec runs programs).
/// Source: fio's HOWTO.rst ("Job file format"), fio 3.33's init.c (8192-byte line buffer).
probe::Result<JobFileFacts> check_job_text(std::string_view text, const std::string& device_path);

/// Check a fio:FILE objective for `device_path` and return it with its metric resolved and
/// Objective::checked_job set: reads the file once (open, fstat: a regular file of at most
/// 64 KiB, else refused before any read), check_job_text on that text, then fio's own parse of
/// the checked job (`fio --parse-only --readonly -`, the job on its stdin, within
/// kFioQuickLimit, ended when `stop` returns true). Without --metric, the metric is iops when
/// some job reads at random, else bw (direction higher). A built-in objective is returned as it is.
/// Errors: the file missing, unreadable, not a regular file or too large (errc::invalid_argument,
/// op "fio job file FILE: <strerror or why>"); check_job_text's refusals (op "FILE: ...");
/// fio's parse failure (errc::invalid_argument, "fio --parse-only rejects FILE: <fio's line>");
/// run_fio's (fio not found, its time limit, a stop request).
probe::Result<Objective> check_fio_job(const Objective& objective, const std::string& device_path,
                                       const std::function<bool()>& stop = {});

/// fio's arguments (after "fio") for one sample of an Engine::fio objective on `device_path`:
/// always --readonly --output-format=json (json+ for a built-in percentile objective: its
/// latency histogram, which the samples pool) --thread (jobs as threads of the one fio process, so
/// killing it ends them: forked job processes outlive their killed parent and read on)
/// --filename=DEVICE --time_based --runtime=<duration>
/// (in whole milliseconds, at least 1; a built-in percentile objective has
/// --number_ios=percentile_completions(objective) --io_size=<those reads' bytes> instead of
/// --time_based, so its sample ends after those completions or at the duration, whichever
/// comes first, on a device of any size), then either a built-in's job over the whole device
/// (bench/objective.hpp: seq-read-direct --rw=read --bs=1M --direct=1 --iodepth=16
/// --ioengine=libaio; rand-read-iops --rw=randread --bs=4k --direct=1 --iodepth=32
/// --ioengine=libaio; rand-read-latency --rw=randread --bs=4k --direct=1 --iodepth=1
/// --ioengine=psync) or "-": the checked job (Objective::checked_job), which the caller gives
/// fio on its stdin (FioLimits::input); the options above are then its global defaults (a job
/// section's own runtime= or time_based=0 wins). Preconditions: objective.engine ==
/// Engine::fio; a job file's objective went through check_fio_job (checked_job not empty).
/// `bound`, when given, bounds a built-in percentile's --number_ios further, clamped to
/// 1..percentile_completions (the later samples run_adaptive sizes by what the pool still
/// needs); other objectives ignore it.
/// Source: fio's documentation (HOWTO.rst, "Command line options", "Job file parameters").
std::vector<std::string> fio_arguments(const Objective& objective, const std::string& device_path,
                                       probe::Seconds duration,
                                       std::optional<std::uint64_t> bound = std::nullopt);

/// The time limit of one fio sample of `duration` [s]: kFioStartupAllowance plus, for a
/// built-in, the duration; for a checked job, its jobs taken one after another, each its
/// runtime (its own when longer than the duration) plus its ramp_time and startdelay (fio's
/// time units: us, ms, s, m, h, d; seconds without one). Precondition: engine == Engine::fio.
probe::Seconds fio_time_limit(const Objective& objective, probe::Seconds duration);

}  // namespace disktune::bench
