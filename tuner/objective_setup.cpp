// SPDX-License-Identifier: GPL-2.0-or-later
// The run's objectives made ready: fio jobs checked and fio's version read before the baseline.
#include "tuner/objective_setup.hpp"

#include "bench/fio_job.hpp"
#include "bench/fio_sampler.hpp"
#include "tuner/run_error.hpp"

namespace disktune::tuner {

ReadyObjectives ready_objectives(const std::vector<bench::Objective>& objectives, const probe::Device& device) {
  ReadyObjectives ready;
  for (const auto& objective : objectives) {
    if (device.simulated() && !objective.job_file.empty())
      throw RunError(kExitUsage, "--objective " + objective.name +
                                     ": the SIMULATED drive models the built-in objectives only, not a job file "
                                     "(use seq-read, seq-read-direct, rand-read-iops or rand-read-latency, or a real device)");
    if (objective.engine != bench::Engine::fio || device.simulated()) {
      ready.objectives.push_back(objective);
      continue;
    }
    auto checked = bench::check_fio_job(objective, device.path());
    if (!checked) throw_device_error(checked.error());
    ready.objectives.push_back(std::move(*checked));
    if (ready.fio_version.empty()) {
      auto version = bench::fio_version();
      if (!version) throw_device_error(version.error());
      ready.fio_version = std::move(*version);
    }
  }
  return ready;
}

}  // namespace disktune::tuner
