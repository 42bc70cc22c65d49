// SPDX-License-Identifier: GPL-2.0-or-later
// The sampler of a run's objective: hdparm-style reads, fio, or the simulated drive's model.
#include "tuner/trial/sampler_factory.hpp"

#include "bench/fio_sampler.hpp"
#include "bench/sim_sampler.hpp"

namespace disktune::tuner {

probe::Result<std::unique_ptr<bench::Sampler>> make_sampler(probe::Device& device, probe::BlockIo& io,
                                                            const TrialSettings& settings) {
  if (settings.objective.engine == bench::Engine::hdparm_reads)
    return std::unique_ptr<bench::Sampler>(std::make_unique<bench::ReadSampler>(io, settings.workload));
  if (!device.simulated())
    return std::unique_ptr<bench::Sampler>(
        std::make_unique<bench::FioSampler>(settings.objective, device.held(), settings.workload.duration,
                                            settings.workload.steady.enabled));
  // SIMULATED: the simulated drive's random-read model (fio:FILE jobs have no model).
  return bench::make_sim_sampler(device, settings.objective, settings.workload.duration);
}

}  // namespace disktune::tuner
