// SPDX-License-Identifier: GPL-2.0-or-later
// The sampler of a run's objective for one measurement: the engine that takes its samples.
#pragma once

#include "bench/sampler.hpp"
#include "probe/device.hpp"
#include "tuner/trial/trial_settings.hpp"

#include <memory>

namespace disktune::tuner {

/// The sampler for `settings.objective`, made after the configuration is applied and `io`
/// opened (a file's readahead is fixed at open): seq-read (bench::Engine::hdparm_reads) reads
/// `io` with settings.workload (bench::ReadSampler); a fio objective on a real device runs fio
/// on device.path() for settings.workload.duration per sample; on a simulated drive its
/// random-read model gives the figures (SIMULATED). `io` and `settings` must outlive the
/// sampler. Errors: errc::not_supported naming the objective when no engine can measure it on
/// this device (bench::make_sim_sampler's: a fio:FILE job on a simulated drive).
probe::Result<std::unique_ptr<bench::Sampler>> make_sampler(probe::Device& device, probe::BlockIo& io,
                                                            const TrialSettings& settings);

}  // namespace disktune::tuner
