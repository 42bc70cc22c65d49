// SPDX-License-Identifier: GPL-2.0-or-later
// The fio job of an objective: the built-ins' parameters, and a user's job file checked to
// read only the device under test.
#pragma once

#include "bench/objective.hpp"
#include "probe/core/clock.hpp"
#include "probe/core/error.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace disktune::bench {

/// What a checked job file does: whether any of its jobs reads at random offsets.
struct JobFileFacts {
  bool random = false;  ///< some section sets rw=randread (readwrite=randread)
};

/// Check a job file's text (fio's INI format: [sections], key or key=value, '#'/';' comments)
/// for a sample of `device_path`. Refused (errc::invalid_argument, op naming the line and why):
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
/// fio's own parse (`fio --parse-only --readonly`) is check_fio_job's first step, not this one's.
probe::Result<JobFileFacts> check_job_text(std::string_view text, const std::string& device_path);

/// Check a fio:FILE objective for `device_path` and return it with its metric resolved:
/// runs `fio --parse-only --readonly FILE` (its first error line on failure, errc::invalid_argument),
/// then check_job_text on the file; without --metric, the metric is iops when some job reads
/// at random, else bw (direction higher). A built-in objective is returned as it is.
/// Errors: the file missing, unreadable or not a regular file (errc::invalid_argument, op
/// "fio job file FILE: <strerror or why>"); fio's parse failure;
/// check_job_text's refusals; run_fio's (fio not found).
probe::Result<Objective> check_fio_job(const Objective& objective, const std::string& device_path);

/// fio's arguments (after "fio") for one sample of an Engine::fio objective on `device_path`:
/// always --readonly --output-format=json --thread (jobs as threads of the one fio process, so
/// killing it ends them: forked job processes outlive their killed parent and read on)
/// --filename=DEVICE --time_based --runtime=<duration>
/// (in whole milliseconds, at least 1), then either a built-in's job over the whole device
/// (bench/objective.hpp: seq-read-direct --rw=read --bs=1M --direct=1 --iodepth=16
/// --ioengine=libaio; rand-read-iops --rw=randread --bs=4k --direct=1 --iodepth=32
/// --ioengine=libaio; rand-read-latency --rw=randread --bs=4k --direct=1 --iodepth=1
/// --ioengine=psync) or the job file (the options above are then its global defaults: a job
/// section's own runtime= or time_based=0 wins). Precondition: objective.engine == Engine::fio.
/// Source: fio's documentation (HOWTO.rst, "Command line options", "Job file parameters").
std::vector<std::string> fio_arguments(const Objective& objective, const std::string& device_path,
                                       probe::Seconds duration);

}  // namespace disktune::bench
