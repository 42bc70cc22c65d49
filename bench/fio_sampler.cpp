// SPDX-License-Identifier: GPL-2.0-or-later
// FioSampler: run fio for one sample and turn its JSON into the objective's score.
#include "bench/fio_sampler.hpp"

#include "bench/fio_job.hpp"
#include "bench/fio_output.hpp"
#include "bench/fio_process.hpp"
#include "probe/core/assert.hpp"

namespace disktune::bench {

FioSampler::FioSampler(const Objective& objective, std::string device_path, probe::Seconds duration)
    : objective_(objective), device_path_(std::move(device_path)), duration_(duration) {
  DT_ASSERT(objective.engine == Engine::fio);
  DT_ASSERT(duration.count() > 0.0);
}

probe::Result<Sample> FioSampler::sample() {
  if (!objective_.job_file.empty() && objective_.checked_job.empty()) {
    // Checked here only when the caller did not (a trial child gets a checked objective).
    auto resolved = check_fio_job(objective_, device_path_);
    if (!resolved) return resolved.error();
    objective_ = std::move(*resolved);
  }
  const auto run = run_fio(fio_arguments(objective_, device_path_, duration_),
                           FioLimits{objective_.checked_job, fio_time_limit(objective_, duration_), {}});
  if (!run) return run.error();
  if (run->exit_code != 0)
    return probe::Error{std::make_error_code(std::errc::io_error),
                        "fio on " + device_path_ + " failed: " + fio_message(*run), ""};
  const auto figures = parse_fio_output(run->out);
  if (!figures) return figures.error();
  const auto figure = figure_for(objective_, *figures);
  if (!figure) return figure.error();
  return Sample{score_of(objective_, *figure), figures->io_bytes, figures->runtime};
}

probe::Result<std::string> fio_version(const std::function<bool()>& stop) {
  const auto run = run_fio({"--version"}, FioLimits{"", kFioQuickLimit, stop});
  if (!run) return run.error();
  if (run->exit_code != 0)
    return probe::Error{std::make_error_code(std::errc::io_error), "fio --version failed: " + fio_message(*run), ""};
  std::string version = run->out.substr(0, run->out.find('\n'));
  return version;
}

}  // namespace disktune::bench
