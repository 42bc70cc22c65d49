// SPDX-License-Identifier: GPL-2.0-or-later
// FioSampler: one sample of a fio-measured objective, fio run as a subprocess.
#pragma once

#include "bench/objective.hpp"
#include "bench/sampler.hpp"

#include <functional>
#include <string>

namespace disktune::bench {

/// Samples an Engine::fio objective (bench/objective.hpp) on `device_path`: each sample()
/// runs fio once (run_fio: no shell, dies with its parent) for `duration` with
/// fio_arguments(objective, device_path, duration) (always --readonly --output-format=json),
/// and parses its JSON (parse_fio_output: rates summed over the jobs, latency the worst
/// job's percentile), each within fio_time_limit. fio reads a fio:FILE objective's checked job
/// (Objective::checked_job) on its stdin, never the file; an objective not yet checked is
/// checked (check_fio_job) before the first run. Pass check_fio_job's result: it knows the
/// unit beforehand, and a file checked once is what every sample runs. Sample::value = score_of(objective, figure) (figure in
/// unit_of: MiB/s, IOPS or µs), Sample::bytes = the bytes fio read, Sample::elapsed = its
/// longest job's runtime. Precondition: objective.engine == Engine::fio, duration > 0.
/// Errors: check_fio_job's and run_fio's (fio not found names Debian's package); fio exiting
/// non-zero: errc::io_error, op "fio on DEVICE failed: <its first error line>"; its output
/// malformed: parse_fio_output's / figure_for's errc::bad_message.
class FioSampler final : public Sampler {
 public:
  FioSampler(const Objective& objective, std::string device_path, probe::Seconds duration);
  probe::Result<Sample> sample() override;
  /// The objective as sampled: its metric resolved once the job file was checked.
  [[nodiscard]] const Objective& objective() const { return objective_; }

 private:
  Objective objective_;
  std::string device_path_;
  probe::Seconds duration_;
};

/// fio's version as `fio --version` prints it ("fio-3.33"), for the report; within
/// kFioQuickLimit, ended when `stop` returns true.
/// Errors: run_fio's (fio not found names Debian's package); a non-zero exit: errc::io_error.
probe::Result<std::string> fio_version(const std::function<bool()>& stop = {});

}  // namespace disktune::bench
