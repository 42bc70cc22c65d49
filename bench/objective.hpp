// SPDX-License-Identifier: GPL-2.0-or-later
// Objectives: what a trial is judged by (tune/bench --objective), its unit, its direction, and
// the score the search compares (higher is better for every objective).
#pragma once

#include "probe/core/clock.hpp"
#include "probe/core/error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::bench {

/// Whether a larger figure is better (throughput, IOPS) or a smaller one (latency).
enum class Direction { higher, lower };

/// "higher" / "lower" (the report's "direction": which way is better).
std::string_view to_string(Direction direction);

/// How an objective's samples are taken.
enum class Engine {
  hdparm_reads,  ///< bench::run_sample on the open device: hdparm -t style buffered reads
  fio,           ///< a fio job run as a subprocess (--readonly, --output-format=json)
};

/// The figure read from fio's JSON output (jobs[].read): "bw" (bw_bytes, reported as MiB/s),
/// "iops" (iops), "p99" / "p999" (clat_ns.percentile["99.000000"] / ["99.900000"], reported in µs).
enum class Metric { bw, iops, p99, p999 };

/// "bw", "iops", "p99", "p999" (fio's names, as --metric takes them).
std::string_view to_string(Metric metric);
/// Inverse of to_string; nullopt for any other name.
std::optional<Metric> metric_from_name(std::string_view name);

/// One objective. Built-in ones (fio's parameters, all read-only, over the whole device):
///   seq-read           hdparm -t semantics: 2 MiB buffered sequential reads (bench/benchmark.hpp); MB/s
///   seq-read-direct    fio rw=read bs=1M direct=1 iodepth=16 ioengine=libaio; bw, MB/s
///   rand-read-iops     fio rw=randread bs=4k direct=1 iodepth=32 ioengine=libaio; iops, IOPS
///   rand-read-latency  fio rw=randread bs=4k direct=1 iodepth=1 ioengine=psync; p99 completion latency, µs
///   fio:FILE           the user's job file FILE; the metric --metric names (default: bw for a
///                      sequential job, iops for a random one: bench/fio_job.hpp decides)
struct Objective {
  std::string name;                   ///< as given: "seq-read", "rand-read-iops", "fio:/etc/db.fio", ...
  Engine engine = Engine::hdparm_reads;
  Metric metric = Metric::bw;
  Direction direction = Direction::higher;
  std::string job_file;               ///< fio:FILE only: the job file's path as given
  bool metric_given = false;          ///< --metric was given (fio:FILE); false = the job's default
  /// fio:FILE once checked (bench/fio_job.hpp check_fio_job): the job as disktune parsed and
  /// allowed it, rewritten with only the allowed options on short lines, no include. This is
  /// what every fio run reads (on its stdin), never the file at job_file: a file changed after
  /// the check changes nothing. Empty until checked.
  std::string checked_job;
  bool operator==(const Objective&) const = default;
};

/// How many completions one sample of a built-in percentile objective (metric p99 or p999)
/// reads before it ends, --duration being the bound: enough that 120 of them lie beyond the
/// percentile (p99: 12 000, p999: 120 000). Why 120: a percentile from k completions beyond it
/// varies by about 1 / (ln(1 / (1 - p)) sqrt(k)) (an exponential tail), 2 % per sample at
/// k = 120 for p99, so six samples put the median's 95 % interval within about ±2 %, the
/// winner rule's smallest gain. A fast device stops early (12 000 reads at 10 000 IOPS: 1.2
/// s); a slow one reaches the bound first and its figure is as precise as the bound allows
/// (a p99 from 240 reads: ±14 %). nullopt for rates (bw, iops) and fio:FILE jobs.
std::optional<std::uint64_t> percentile_completions(const Objective& objective);

/// The warm-up of one sample of a built-in fio objective (the one run_adaptive discards before
/// a trial's samples and a confirmation unit's kept one): its time bound and, for a
/// percentile, the completions that end it sooner.
struct WarmupSize {
  probe::Seconds duration{0.0};               ///< a third of --duration, at least 0.1 s, at most --duration
  std::optional<std::uint64_t> completions;   ///< a percentile's: a tenth of completions_to_bound (36 for a p99)
};

/// The warm-up of `objective` sampled for `duration`, for FioSampler and the SIMULATED drive's
/// sampler alike: it only brings the device and its queue to their running state (a third of a
/// sample), and at queue depth 1 a percentile's running state is one read in flight: what it
/// must absorb is the first reads' wake-up (a spun-down disk, an SSD's power state), which a
/// few reads do. Preconditions: objective.engine == Engine::fio and no job file (a user's job
/// warms up whole), duration > 0.
WarmupSize builtin_warmup(const Objective& objective, probe::Seconds duration);

/// The percentile a latency metric names, as a fraction: 0.99 for p99, 0.999 for p999
/// (fio's clat_ns.percentile keys "99.000000", "99.900000"). Precondition (DT_ASSERT): metric is p99 or p999.
double percentile_fraction(Metric metric);

/// The unit of the objective's figures as the report and table print them: "MB/s" (MiB/s, as
/// hdparm prints), "IOPS", "us" (microseconds).
std::string_view unit_of(const Objective& objective);

/// The score the search compares, from a figure in unit_of(objective): the figure itself when
/// higher is better; 1e6 / figure for a latency in µs (completions per second at that latency),
/// so that every statistic (medians, order-statistic intervals, relative gains) keeps its
/// meaning and the search, the winner rule and racing need not know the direction.
/// Precondition: figure > 0 for a lower-is-better objective.
double score_of(const Objective& objective, double figure);
/// Inverse of score_of: the figure in unit_of(objective) for a score. 0 stays 0 (no figure).
double figure_of(const Objective& objective, double score);

/// A score of `objective` as its figure, without the unit: "3.83" (MB/s: two decimals, MB =
/// 2^20 bytes as hdparm prints it), "1520" (IOPS), "812.5" (µs).
std::string figure_number(const Objective& objective, double score);
/// figure_number and the unit: "3.83 MB/s", "1520 IOPS", "812.5 us".
std::string format_figure(const Objective& objective, double score);

/// Parse one --objective NAME (see Objective) and --metric (empty = the default). Errors
/// (errc::invalid_argument, naming the input and the reason): an unknown name, "fio:" without
/// a file, an unknown metric, or --metric given for a built-in objective other than its own.
/// The job file itself is checked later (bench/fio_job.hpp: exists, parses, reads only).
probe::Result<Objective> parse_objective(std::string_view name, std::string_view metric);

/// Split an `--objective` list at its commas: "a,b,c" gives "a", "b", "c". A comma inside a
/// fio:FILE name belongs to the path unless what follows it is a built-in objective's name
/// (up to the next comma or the end) or another "fio:": "fio:/j/a,b.fio" is one name,
/// "fio:/j/a.fio,seq-read" two. (A job file whose name holds ",seq-read" or ",fio:" must be
/// renamed or linked to another name.)
std::vector<std::string_view> split_objectives(std::string_view list);

/// Parse `--objective A[,B]` (split by split_objectives): the optimised objective first, then
/// at most one guard objective (tune: the chosen configuration must not be significantly worse
/// than the baseline on it). --metric applies to the fio:FILE objective among them. Errors: as
/// parse_objective, plus more than two names (counted before any is parsed), an empty name, or
/// the same objective twice.
probe::Result<std::vector<Objective>> parse_objectives(std::string_view list, std::string_view metric);

/// The built-in objectives' names, in the order `--help` lists them.
const std::vector<std::string_view>& builtin_objective_names();

}  // namespace disktune::bench
