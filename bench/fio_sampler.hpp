// SPDX-License-Identifier: GPL-2.0-or-later
// FioSampler: one sample of a fio-measured objective, fio run as a subprocess.
#pragma once

#include "bench/objective.hpp"
#include "bench/sampler.hpp"
#include "bench/steady.hpp"
#include "probe/held_name.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace disktune::bench {

/// Samples an Engine::fio objective (bench/objective.hpp) on the held device `device`: each
/// sample() first checks that device.path still reaches the held device (probe::check_held),
/// then runs fio once (run_fio: no shell, dies with its parent, device.fd kept open in it) for
/// `duration` with fio_arguments(objective, device.path, duration) (always --readonly
/// --output-format=json; --filename=/proc/self/fd/N, never the user's name: fio splits a name
/// at ':' and reopens it for every sample, so a by-path name or a moved symlink would read
/// another device),
/// and parses its JSON (parse_fio_output: rates summed over the jobs, latency the worst
/// job's percentile), each within fio_time_limit. fio reads a fio:FILE objective's checked job
/// (Objective::checked_job) on its stdin, never the file; an objective not yet checked is
/// checked (check_fio_job) before the first run. Pass check_fio_job's result: it knows the
/// unit beforehand, and a file checked once is what every sample runs. Sample::value = score_of(objective, figure) (figure in
/// unit_of: MiB/s, IOPS or µs), Sample::bytes = the bytes fio read, Sample::elapsed = its
/// longest job's runtime. Precondition: objective.engine == Engine::fio, duration > 0.
/// Errors: check_fio_job's and run_fio's (fio not found names Debian's package); fio exiting
/// non-zero: errc::io_error, op "fio on DEVICE failed: <its first error line>" (DEVICE:
/// device.shown); check_held's errc::no_such_device; its output
/// malformed: parse_fio_output's / figure_for's errc::bad_message.
///
/// The steady stop (`steady_stop`): a built-in objective scored by a rate
/// (seq-read-direct's bw, rand-read-iops' iops) runs fio with --status-interval (a report
/// every duration / 30, 100 ms at least: fio 3.33 refuses less) and ends it (SIGINT: fio
/// finishes its jobs and prints its final report) once the cumulative count (bytes or
/// completions) against the jobs' runtime is steady by fio_steady_rule (steady_slope, the
/// rule of a buffered sample); the figure is projected to the whole duration at the steady
/// rate (projected_rate), so an early sample and a full one score alike. fio's own steady-state
/// options (ss=) judge once a second and are not used. A percentile objective is sized by its
/// completions instead (fio_arguments' --number_ios), a fio:FILE job is never cut short (its
/// phases are the user's). Sample::completions is fio's total_ios; a built-in percentile's
/// Sample::latency is fio's clat_ns.bins (json+) with the objective's fraction.
class FioSampler final : public Sampler {
 public:
  FioSampler(const Objective& objective, probe::HeldName device, probe::Seconds duration, bool steady_stop = false);
  probe::Result<Sample> sample() override;
  /// A built-in's warm-up is builtin_warmup's: a third of the duration (at full length it was a
  /// quarter of a percentile trial's time), a percentile's ending after 36 reads (at 100 IOPS a
  /// third of 3 s was a sixth of the trial). A fio:FILE job's warm-up is a whole sample (its phases are the user's).
  probe::Result<Sample> warmup() override;
  /// A built-in percentile's sample of at most `completions` reads (--number_ios), bounded by
  /// the duration as sample() is; any other objective's sample() (a rate's steady stop sizes it).
  probe::Result<Sample> sample_completions(std::uint64_t completions) override;
  /// The objective as sampled: its metric resolved once the job file was checked.
  [[nodiscard]] const Objective& objective() const { return objective_; }

 private:
  [[nodiscard]] bool steady_applies() const;
  probe::Result<Sample> sample_for(probe::Seconds duration, std::optional<std::uint64_t> completions = std::nullopt);

  Objective objective_;
  probe::HeldName device_;
  probe::Seconds duration_;
  bool steady_stop_ = false;
};

/// The steady rule of a fio sample: from a third of the duration on, the reports after the
/// first 10 % of the time, at least 8 of them, both halves' slopes within 1 % of the whole's
/// (a rate still drifting must not be projected: an EMULATED 2 GiB hdd's zones slow within a sample),
/// and the mean rate between reports known within 1 % (its standard error): half the winner
/// rule's 2 % minimum gain. A throttled loop device's bursts (50 MiB/s in 1 MiB reads: 100 ms
/// reports read 10-99 MB/s) never meet it, so its samples run their whole duration.
SteadyRule fio_steady_rule();

/// fio's --status-interval for a steady-stopped sample of `duration`, in ms: duration / 30,
/// at least 100 (fio 3.33's minimum).
long fio_status_interval_ms(probe::Seconds duration);

/// fio's version as `fio --version` prints it ("fio-3.33"), for the report; within
/// kFioQuickLimit, ended when `stop` returns true.
/// Errors: run_fio's (fio not found names Debian's package); a non-zero exit: errc::io_error.
probe::Result<std::string> fio_version(const std::function<bool()>& stop = {});

}  // namespace disktune::bench
