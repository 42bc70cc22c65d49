// SPDX-License-Identifier: GPL-2.0-or-later
// The run's objectives made ready: fio jobs checked and fio's version read before the baseline.
#include "tuner/run/objective_setup.hpp"

#include "bench/fio_job.hpp"
#include "bench/fio_sampler.hpp"
#include "tuner/run_error.hpp"
#include "tuner/host/signals.hpp"

namespace disktune::tuner {
namespace {

// A stop request ends the run as stopped (exit 1), not as a device error.
[[noreturn]] void fail(const probe::Error& error) {
  if (error.code == std::errc::interrupted) throw RunError(kExitPartial, stop_message(stop_requested()));
  throw_device_error(error);
}

}  // namespace

ReadyObjectives ready_objectives(const std::vector<bench::Objective>& objectives, const probe::Device& device) {
  ReadyObjectives ready;
  // fio started before the baseline ends on the first stop request: no trial is running yet.
  const auto stop = [] { return stop_requested() != 0; };
  for (const auto& objective : objectives) {
    if (device.simulated() && !objective.job_file.empty())
      throw RunError(kExitUsage, "--objective " + objective.name +
                                     ": the SIMULATED drive models the built-in objectives only, not a job file "
                                     "(use seq-read, seq-read-direct, rand-read-iops or rand-read-latency, or a real device)");
    if (objective.engine != bench::Engine::fio || device.simulated()) {
      ready.objectives.push_back(objective);
      continue;
    }
    auto checked = bench::check_fio_job(objective, device.path(), stop);
    if (!checked) fail(checked.error());
    ready.objectives.push_back(std::move(*checked));
    if (ready.fio_version.empty()) {
      auto version = bench::fio_version(stop);
      if (!version) fail(version.error());
      ready.fio_version = std::move(*version);
    }
  }
  return ready;
}

}  // namespace disktune::tuner
