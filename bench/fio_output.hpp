// SPDX-License-Identifier: GPL-2.0-or-later
// fio's JSON output (--output-format=json) turned into one objective's figures.
#pragma once

#include "bench/latency_pool.hpp"
#include "bench/objective.hpp"
#include "probe/core/clock.hpp"
#include "probe/core/error.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace disktune::bench {

/// The read side of one fio run, combined over its jobs (fio reports one entry per job, or
/// one per group with group_reporting): rates add up, since the jobs ran side by side on the
/// same device; a percentile is the worst job's (the slowest job's p99 is what a workload of
/// those jobs waits for; fio's own per-job percentiles cannot be merged exactly without its
/// histograms); bytes add up; the time is the longest job's.
struct FioFigures {
  double iops = 0.0;                     ///< sum of jobs[].read.iops [requests/s]
  double bw_mib_s = 0.0;                 ///< sum of jobs[].read.bw_bytes / 2^20 [MiB/s]
  std::optional<double> p99_us;          ///< max of jobs[].read.clat_ns.percentile["99.000000"] / 1000 [µs]
  std::optional<double> p999_us;         ///< the same for "99.900000"
  std::uint64_t io_bytes = 0;            ///< sum of jobs[].read.io_bytes [bytes]
  std::uint64_t ios = 0;                 ///< sum of jobs[].read.total_ios: the completions [reads]
  probe::Seconds runtime{0.0};           ///< max of jobs[].read.runtime [ms in fio, s here]
  /// jobs[].read.clat_ns.bins summed over the jobs (only with --output-format=json+; empty
  /// otherwise), sorted by latency.
  std::vector<LatencyBin> clat_bins;
};

/// The complete JSON documents in fio's stdout, in order: each from a line that starts with
/// '{' to the next line that starts with '}' (fio prints its documents indented, so only a
/// document's own braces start a line). With --status-interval fio prints one document per
/// interval and its final report last; text between them ("fio: terminating on signal 2")
/// is skipped. A document still being written is not included.
std::vector<std::string_view> fio_documents(std::string_view text);

/// Parse fio's --output-format=json text: its last complete document (fio_documents; the
/// final report when --status-interval printed progress before it), else everything from the
/// first line starting with '{' (a malformed document then says why). Anything fio printed
/// before the document (a "fio: ..." notice on stdout) is skipped. Jobs that
/// read nothing (io_bytes 0) add nothing and give no percentile.
/// Errors: errc::bad_message, op "fio's JSON output is malformed: <why>" (no document, a
/// syntax error, no jobs array, a job without read.iops/bw_bytes/io_bytes/runtime, a non-zero
/// jobs[].error: "fio job NAME failed: error N").
/// Source: fio's HOWTO.rst (--output-format=json; "Interpreting the output" for the fields'
/// meaning: runtime in ms, clat in ns, bw_bytes in bytes/s); the key names as fio 3.33 prints
/// them (tests/data/fio/*.json, captured on a loop device), unchanged since fio 3.x. A bin
/// whose key is not a number of ns or whose count is not a count is malformed too.
probe::Result<FioFigures> parse_fio_output(std::string_view text);

/// The figure `objective.metric` names, in unit_of(objective): bw MiB/s, iops, p99/p999 µs;
/// always > 0. A zero or missing figure is an error, never a figure: fio read nothing (io_bytes
/// 0: create_only=1, size=0, ...), reported 0 IOPS or 0 bandwidth, or no positive percentile
/// (the job turned clat_percentiles off). The error names the job ("fio job file FILE: fio
/// reported no reads (...)", or "fio job rand-read-iops: ..." for a built-in) with
/// errc::invalid_argument for a fio:FILE job (the job is at fault: exit 2) and errc::io_error
/// for a built-in (the device read nothing: exit 3).
probe::Result<double> figure_for(const Objective& objective, const FioFigures& figures);

}  // namespace disktune::bench
