// SPDX-License-Identifier: GPL-2.0-or-later
// The sampler of a run's objective: hdparm-style reads, fio, or the simulated drive's model.
#include "tuner/sampler_factory.hpp"

#include "bench/fio_sampler.hpp"

namespace disktune::tuner {

probe::Result<std::unique_ptr<bench::Sampler>> make_sampler(probe::Device& device, probe::BlockIo& io,
                                                            const TrialSettings& settings) {
  if (settings.objective.engine == bench::Engine::hdparm_reads)
    return std::unique_ptr<bench::Sampler>(std::make_unique<bench::ReadSampler>(io, settings.workload));
  if (!device.simulated())
    return std::unique_ptr<bench::Sampler>(
        std::make_unique<bench::FioSampler>(settings.objective, device.path(), settings.workload.duration));
  return probe::Error{std::make_error_code(std::errc::not_supported),
                      "objective " + settings.objective.name + ": no measurement engine for it on this device",
                      device.path()};
}

}  // namespace disktune::tuner
